"use server";

import { orgAction, say } from "@/app/_kit/org-action";
import { snooze } from "@/lib/autoshutdown";
import type { ActionResult } from "@/lib/core";

/** Postpone the instance's pending automatic stop by the minutes asked for (the library checks the policy). */
export const snoozeShutdownAction = orgAction(
  { label: "autoshutdown.snooze", area: "Costs.errors" },
  async (ctx, orgSlug, instanceId: string, _prev: ActionResult | null, fd: FormData) => {
    await snooze(ctx, orgSlug, instanceId, { minutes: String(fd.get("minutes") ?? "").trim() });
    return {
      message: await say("Costs.shutdown", "snoozed"),
      revalidate: `/instances/${instanceId}`,
    };
  },
);
