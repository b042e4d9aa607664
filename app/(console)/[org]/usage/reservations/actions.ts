"use server";

import { orgAction, say } from "@/app/_kit/org-action";
import type { ReservationQuoteView } from "@/components/costs/reservation-purchase";
import type { ActionResult } from "@/lib/core";
import { purchaseReservation, quoteReservation, type ReservationInput } from "@/lib/metering";

const text = (fd: FormData, name: string) => String(fd.get(name) ?? "");

/** The form as the library's input; its schema (not this cast) decides what is valid. */
const fields = (fd: FormData): ReservationInput => ({
  gpuModelId: text(fd, "gpuModelId"),
  regionCode: text(fd, "regionCode"),
  gpuCount: text(fd, "gpuCount"),
  term: text(fd, "term") as ReservationInput["term"],
  // One key per quote shown (the purchase form's hidden field): a double submit or retry buys once.
  idempotencyKey: text(fd, "idempotencyKey") || null,
});

/** The price of the reservation as filled in, before anything is bought (any member may ask). */
export const quoteReservationAction = orgAction<[unknown, FormData], ReservationQuoteView>(
  { label: "reservation.quote", area: "Costs.errors" },
  async (ctx, orgSlug, _prev, fd) => {
    const q = await quoteReservation(ctx, orgSlug, fields(fd));
    return { data: { ...q, startsAt: q.startsAt.toISOString(), endsAt: q.endsAt.toISOString() } };
  },
);

/** Buy it (admins and owners; the library refuses anyone else). */
export const purchaseReservationAction = orgAction(
  { label: "reservation.purchase", area: "Costs.errors", revalidate: { path: "/usage", type: "layout" } },
  async (ctx, orgSlug, _prev: ActionResult | null, fd: FormData) => {
    await purchaseReservation(ctx, orgSlug, fields(fd));
    return { message: await say("Costs.reservations", "purchased") };
  },
);
