"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { costActionError } from "@/components/costs/action-error";
import type { ReservationQuoteView } from "@/components/costs/reservation-purchase";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { purchaseReservation, quoteReservation, type ReservationInput } from "@/lib/metering";

const text = (fd: FormData, name: string) => String(fd.get(name) ?? "");

/** The form as the library's input; its schema (not this cast) decides what is valid. */
const fields = (fd: FormData): ReservationInput => ({
  gpuModelId: text(fd, "gpuModelId"),
  regionCode: text(fd, "regionCode"),
  gpuCount: text(fd, "gpuCount"),
  term: text(fd, "term") as ReservationInput["term"],
});

/** The price of the reservation as filled in, before anything is bought (any member may ask). */
export async function quoteReservationAction(
  orgSlug: string,
  _prev: ActionResult<ReservationQuoteView> | null,
  fd: FormData,
): Promise<ActionResult<ReservationQuoteView>> {
  const ctx = await requireUserCtx();
  try {
    const q = await quoteReservation(ctx, orgSlug, fields(fd));
    return { ok: true, data: { ...q, startsAt: q.startsAt.toISOString(), endsAt: q.endsAt.toISOString() } };
  } catch (err) {
    return costActionError(err, "reservation.quote");
  }
}

/** Buy it (admins and owners; the library refuses anyone else). */
export async function purchaseReservationAction(
  orgSlug: string,
  _prev: ActionResult | null,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await purchaseReservation(ctx, orgSlug, fields(fd));
  } catch (err) {
    return costActionError(err, "reservation.purchase");
  }
  revalidatePath(`/${orgSlug}/usage`, "layout");
  return { ok: true, message: (await getTranslations("Costs.reservations"))("purchased") };
}
