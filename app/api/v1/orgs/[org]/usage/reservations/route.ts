import { errorToProblem } from "@/lib/api/problem";
import { nowOf } from "@/lib/core";
import { purchaseReservation, type ReservationInput, savings } from "@/lib/metering";
import { apiCtx, json } from "../../instances/actor";
import { readJson } from "../read-json";

const DAY = 86_400_000;

/** GET: the organization's reservations of the last year with their utilization (any member role). */
export async function GET(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  try {
    const ctx = await apiCtx(req);
    const now = nowOf(ctx);
    const { reservations } = await savings(ctx, org, {
      from: new Date(now.getTime() - 365 * DAY),
      to: new Date(now.getTime() + DAY),
    });
    return json({ reservations });
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}

/** POST {gpuModelId, regionCode, gpuCount, term}: buy a reservation (admins and owners). 201 with its quote. */
export async function POST(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  try {
    const ctx = await apiCtx(req);
    const body = await readJson(req);
    const { reservation, quote } = await purchaseReservation(ctx, org, body as ReservationInput);
    return Response.json({ reservation, quote }, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}
