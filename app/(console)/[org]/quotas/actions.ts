"use server";

import { orgFormAction, say } from "@/app/_kit/org-action";
import { createQuotaRequest, setProjectShare, setQuotaPolicy } from "@/lib/quotas";

export const requestQuotaAction = orgFormAction(
  {
    label: "requestQuota",
    area: "OrgQuotas",
    revalidate: "/quotas",
    fields: ["gpuModelId", "regionCode", "requestedGpus", "until", "reason"],
  },
  async (ctx, orgSlug, input) => {
    await createQuotaRequest(ctx, orgSlug, input);
    return { message: await say("OrgQuotas", "requested") };
  },
);

export const setProjectShareAction = orgFormAction(
  {
    label: "setProjectShare",
    area: "OrgQuotas",
    revalidate: "/quotas",
    fields: ["project", "gpuModelId", "regionCode", "shareGpus"],
  },
  async (ctx, orgSlug, input) => {
    await setProjectShare(ctx, orgSlug, input);
    return { message: await say("OrgQuotas", "shareSaved") };
  },
);

/** The preemption policy's checkbox: checked sends "on", unchecked sends nothing (off). */
export const setQuotaPolicyAction = orgFormAction(
  {
    label: "setQuotaPolicy",
    area: "OrgQuotas",
    revalidate: "/quotas",
    fields: ["preemptLowerPriority"],
  },
  async (ctx, orgSlug, input) => {
    await setQuotaPolicy(ctx, orgSlug, { preemptLowerPriority: input.preemptLowerPriority === "on" });
    return { message: await say("OrgQuotas", "policySaved") };
  },
);
