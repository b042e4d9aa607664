"use server";

import { revalidatePath } from "next/cache";
import { costActionError } from "@/components/costs/action-error";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { listNotifications, markNotificationsRead } from "@/lib/notify";

/** Mark the posted notification ids read (`all` = every unread one the reader can see). */
export async function markReadAction(
  orgSlug: string,
  _prev: ActionResult | null,
  fd: FormData,
): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  try {
    const ids =
      fd.get("all") === "1"
        ? (await listNotifications(ctx, orgSlug, { unreadOnly: true, limit: 200 })).map((n) => n.id)
        : fd.getAll("id").map(String);
    await markNotificationsRead(ctx, orgSlug, ids);
  } catch (err) {
    return costActionError(err, "notifications.markRead");
  }
  // The banner and the unread count in the shell read the same rows.
  revalidatePath(`/${orgSlug}`, "layout");
  return { ok: true };
}
