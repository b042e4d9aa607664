import { readJsonBody, withIdempotencyKey } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { nowOf } from "@/lib/core";
import { purchaseReservation, type ReservationInput, savings } from "@/lib/metering";

const DAY = 86_400_000;

/** GET: the organization's reservations of the last year with their utilization (any member role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const now = nowOf(ctx);
  const { reservations } = await savings(ctx, params.org, {
    from: new Date(now.getTime() - 365 * DAY),
    to: new Date(now.getTime() + DAY),
  });
  return apiJson(pageOf(reservations, url.searchParams, (r) => r.reservationId));
});

/**
 * POST {gpuModelId, regionCode, gpuCount, term}: buy a reservation (admins and owners). 201 with its quote. An
 * `Idempotency-Key` header makes a retry safe: the same key again answers 200 with the reservation it bought
 * (Idempotent-Replayed: true) instead of committing to a second term.
 */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  // The library's schema checks the shape (422); readJsonBody refuses unreadable JSON (400) and size (413).
  const body = withIdempotencyKey(
    await readJsonBody(req),
    req.headers.get("idempotency-key"),
  ) as ReservationInput;
  const { reservation, quote, replayed } = await purchaseReservation(ctx, params.org, body);
  return apiJson(
    { reservation, quote },
    { status: replayed ? 200 : 201, headers: replayed ? { "idempotent-replayed": "true" } : {} },
  );
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
