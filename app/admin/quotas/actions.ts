"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import {
  createCohort,
  removeCohortMember,
  setCohortMember,
  setOrgQuota,
  setQuotaDefault,
} from "@/lib/quotas";

const area = "AdminQuotas.errors";
const revalidate = "/admin/quotas";
const levels = ["nominalGpus", "borrowingLimitGpus", "lendingLimitGpus"];

export const setOrgQuotaAction = adminFormAction(
  {
    label: "setOrgQuota",
    area,
    revalidate,
    fields: ["orgId", "gpuModelId", "regionCode", ...levels, "confirmReclaim"],
  },
  async (ctx, input) => {
    await setOrgQuota(ctx, { ...input, confirmReclaim: input.confirmReclaim ?? undefined });
    return { message: await say("AdminQuotas", "saved") };
  },
);

export const setQuotaDefaultAction = adminFormAction(
  {
    label: "setQuotaDefault",
    area,
    revalidate,
    fields: ["gpuModelId", "regionCode", ...levels, "confirmReclaim"],
  },
  async (ctx, input) => {
    await setQuotaDefault(ctx, { ...input, confirmReclaim: input.confirmReclaim ?? undefined });
    return { message: await say("AdminQuotas", "defaultSaved") };
  },
);

export const createCohortAction = adminFormAction(
  { label: "createCohort", area, revalidate, fields: ["name", "description"] },
  async (ctx, input) => {
    const row = await createCohort(ctx, { name: input.name, description: input.description ?? "" });
    return { message: await say("AdminQuotas", "cohortCreated", { name: row.name }) };
  },
);

export const setCohortMemberAction = adminFormAction(
  { label: "setCohortMember", area, revalidate, fields: ["cohortId", "orgId", "weight"] },
  async (ctx, input) => {
    await setCohortMember(ctx, input);
    return { message: await say("AdminQuotas", "memberSet") };
  },
);

export const removeCohortMemberAction = adminFormAction<unknown>(
  { label: "removeCohortMember", area, revalidate, fields: ["orgId"] },
  async (ctx, input) => {
    await removeCohortMember(ctx, input);
    return undefined;
  },
);
