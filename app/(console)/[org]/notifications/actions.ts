"use server";

import { orgAction } from "@/app/_kit/org-action";
import type { ActionResult } from "@/lib/core";
import { listNotifications, markNotificationsRead } from "@/lib/notify";

/** Mark the posted notification ids read (`all` = every unread one the reader can see). */
export const markReadAction = orgAction(
  // The banner and the unread count in the shell read the same rows.
  { label: "notifications.markRead", area: "Costs.errors", revalidate: { path: "", type: "layout" } },
  async (ctx, orgSlug, _prev: ActionResult | null, fd: FormData) => {
    const ids =
      fd.get("all") === "1"
        ? (await listNotifications(ctx, orgSlug, { unreadOnly: true, limit: 200 })).map((n) => n.id)
        : fd.getAll("id").map(String);
    await markNotificationsRead(ctx, orgSlug, ids);
  },
);
