import { errorToProblem } from "@/lib/api/problem";
import { quoteReservation, type ReservationInput } from "@/lib/metering";
import { apiCtx, json } from "../../../instances/actor";
import { readJson } from "../../read-json";

/** POST {gpuModelId, regionCode, gpuCount, term}: what that reservation would cost if bought now. */
export async function POST(req: Request, { params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const url = new URL(req.url);
  try {
    const ctx = await apiCtx(req);
    return json(await quoteReservation(ctx, org, (await readJson(req)) as ReservationInput));
  } catch (err) {
    return errorToProblem(err, url.pathname);
  }
}
