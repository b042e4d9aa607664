import { z } from "zod";
import "zod-openapi";
import type { QuotaRequest } from "./requests";

/** A quota request as the API answers it (the same view the console's Quotas page lists). */
export const quotaRequestViewSchema = z
  .object({
    id: z.uuid(),
    gpuModelId: z.string(),
    regionCode: z.string(),
    requestedGpus: z.int().meta({ description: "Nominal GPUs asked for in total" }),
    until: z
      .string()
      .nullable()
      .meta({ description: "End of a temporary raise (ISO time); null = permanent" }),
    reason: z.string(),
    status: z.enum(["open", "approved", "partial", "denied"]),
    grantedGpus: z.int().nullable(),
    decisionMessage: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "QuotaRequest" });
export type QuotaRequestView = z.infer<typeof quotaRequestViewSchema>;
/** A request in the operators' queue (GET /admin/quota-requests): the request and its organization's standing. */
export const operatorQuotaRequestViewSchema = quotaRequestViewSchema
  .extend({
    orgSlug: z.string(),
    orgName: z.string(),
    requesterEmail: z.string().nullable(),
    nominalGpus: z
      .number()
      .meta({ description: "The organization's nominal quota now (MIG slices count as fractions)" }),
    inUseGpus: z.number().meta({ description: "GPUs the organization holds now under this quota" }),
    monthSpendUsd: z.number(),
    pastRequests: z.int().meta({ description: "Earlier requests of the organization" }),
  })
  .meta({ id: "OperatorQuotaRequest" });
export const quotaRequestListSchema = z
  .object({ items: z.array(quotaRequestViewSchema) })
  .meta({ id: "QuotaRequestList" });

export function quotaRequestView(r: QuotaRequest): QuotaRequestView {
  return {
    id: r.id,
    gpuModelId: r.gpuModelId,
    regionCode: r.regionCode,
    requestedGpus: r.requestedGpus,
    until: r.until?.toISOString() ?? null,
    reason: r.reason,
    status: r.status,
    grantedGpus: r.grantedGpus,
    decisionMessage: r.decisionMessage,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** One GPU model × region of an organization's quota (GET /orgs/{org}/quotas). */
export const orgQuotaViewSchema = z
  .object({
    gpuModelId: z.string(),
    gpuModelName: z.string(),
    regionCode: z.string(),
    nominalGpus: z.int().meta({ description: "Guaranteed GPUs" }),
    borrowingLimitGpus: z.int().meta({ description: "GPUs beyond nominal it may borrow from its cohort" }),
    inUseGpus: z.number().meta({ description: "GPUs; a MIG slice counts as a fraction (1/7) of a GPU" }),
    borrowedGpus: z.number().meta({
      description: "Held now beyond nominal (reclaimable with notice); MIG slices count as fractions",
    }),
    availableToBorrowGpus: z.number().meta({
      description: "Idle cohort GPUs it could borrow right now; MIG slices count as fractions",
    }),
    inCohort: z.boolean(),
    fromDefault: z.boolean().meta({ description: "No quota of its own: a default applies" }),
    shares: z.array(z.object({ projectSlug: z.string(), projectName: z.string(), shareGpus: z.int() })),
  })
  .meta({ id: "OrgQuota" });
export const orgQuotaListSchema = z
  .object({ items: z.array(orgQuotaViewSchema) })
  .meta({ id: "OrgQuotaList" });

/** Operators: one organization × GPU model × region (GET /admin/quotas). */
export const adminQuotaRowSchema = z
  .object({
    orgId: z.uuid(),
    orgName: z.string(),
    orgSlug: z.string(),
    gpuModelId: z.string(),
    regionCode: z.string(),
    source: z.enum(["organization", "default", "builtin"]),
    nominalGpus: z.int(),
    borrowingLimitGpus: z.int(),
    lendingLimitGpus: z.int().nullable().meta({ description: "null = all unused nominal may be lent" }),
    inUseGpus: z.number().meta({ description: "GPUs; a MIG slice counts as a fraction (1/7) of a GPU" }),
    borrowedGpus: z.number().meta({ description: "GPUs; a MIG slice counts as a fraction (1/7) of a GPU" }),
    lentGpus: z.number().meta({ description: "GPUs; a MIG slice counts as a fraction (1/7) of a GPU" }),
    cohortName: z.string().nullable(),
  })
  .meta({ id: "AdminQuota" });
export const adminQuotaListSchema = z
  .object({ items: z.array(adminQuotaRowSchema) })
  .meta({ id: "AdminQuotaList" });

export const cohortViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    members: z.array(z.object({ orgId: z.uuid(), orgName: z.string(), weight: z.number() })),
  })
  .meta({ id: "Cohort" });
export const cohortListSchema = z.object({ items: z.array(cohortViewSchema) }).meta({ id: "CohortList" });
