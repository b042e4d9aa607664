"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import { reactivateOrganization, suspendOrganization } from "@/lib/provisioning";

const area = "Admin.tenant.errors";
const revalidate = (input: Record<string, unknown>) => `/admin/tenants/${String(input.org ?? "")}`;

export const suspendTenantAction = adminFormAction(
  { label: "suspendTenant", area, revalidate, fields: ["org", "reason", "noticeMinutes"] },
  async (ctx, input) => {
    const r = await suspendOrganization(ctx, input);
    return { message: await say("Admin.tenant", "suspended", { count: r.noticedInstances }) };
  },
);

export const reactivateTenantAction = adminFormAction(
  { label: "reactivateTenant", area, revalidate, fields: ["org"] },
  async (ctx, input) => {
    await reactivateOrganization(ctx, input);
    return { message: await say("Admin.tenant", "reactivated") };
  },
);
