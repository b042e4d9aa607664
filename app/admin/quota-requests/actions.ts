"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import { decideQuotaRequest } from "@/lib/quotas";

export const decideQuotaRequestAction = adminFormAction(
  {
    label: "decideQuotaRequest",
    area: "AdminQuotaRequests.errors",
    revalidate: "/admin/quota-requests",
    fields: ["requestId", "decision", "grantedGpus", "message"],
  },
  async (ctx, { requestId, ...input }) => {
    const row = await decideQuotaRequest(ctx, String(requestId ?? ""), input);
    return {
      message: await say("AdminQuotaRequests", `decided.${row.status}`, { granted: row.grantedGpus ?? 0 }),
    };
  },
);
