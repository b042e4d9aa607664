"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import { snooze } from "@/lib/autoshutdown";
import type { ActionResult } from "@/lib/core";
import { costActionError } from "./action-error";

/** Postpone the instance's pending automatic stop by the minutes asked for (the library checks the policy). */
export async function snoozeShutdownAction(
  orgSlug: string,
  instanceId: string,
  _prev: ActionResult | null,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    await snooze(ctx, orgSlug, instanceId, { minutes: String(fd.get("minutes") ?? "").trim() });
  } catch (err) {
    return costActionError(err, "autoshutdown.snooze");
  }
  revalidatePath(`/${orgSlug}/instances/${instanceId}`);
  return { ok: true, message: (await getTranslations("Costs.shutdown"))("snoozed") };
}
