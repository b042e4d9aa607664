import { z } from "zod";
import { fieldMessages } from "@/lib/core";

/**
 * Every field message lib/quotas produces, by a stable key. The English text is the API's problem detail;
 * the UI shows the same key from the catalog (messages/<locale>/quotas.json, namespace QuotaFieldErrors).
 */
export const QUOTA_FIELD_MESSAGES = fieldMessages("QuotaFieldErrors", {
  gpusWhole: "Enter a whole number of GPUs, 0 or more",
  gpusTooMany: "At most 100000 GPUs",
  lendingAboveNominal: "The lending limit cannot be larger than the nominal quota",
  modelRequired: "Choose a GPU model",
  regionRequired: "Choose a region",
  organizationRequired: "Choose an organization",
  organizationUnknown: "There is no such organization",
  cohortNameRequired: "Enter a cohort name (2 to 60 characters)",
  cohortNameTaken: "A cohort with this name already exists",
  cohortRequired: "Choose a cohort",
  cohortUnknown: "There is no such cohort",
  weightInvalid: "Enter a weight between 0.1 and 100",
  reasonRequired: "Say why (3 to 1000 characters)",
  untilInPast: "Choose a date in the future, or leave it empty for a permanent raise",
  grantedInvalid: "Grant between 1 GPU and the amount asked for",
  messageTooLong: "At most 1000 characters",
  descriptionTooLong: "At most 500 characters",
  shareAboveNominal: "Project shares together cannot exceed the organization's nominal quota",
  projectRequired: "Choose a project",
  requestedInvalid: "Enter the total number of GPUs you need, 1 or more",
  requestAboveNominal: "Ask for more than your current nominal quota",
  decisionRequired: "Choose approve or deny",
  preemptChoice: "Choose whether higher-priority work may preempt lower-priority work (true or false)",
});
const M = QUOTA_FIELD_MESSAGES;

const gpus = z.coerce
  .number({ error: M.gpusWhole })
  .int({ error: M.gpusWhole })
  .min(0, { error: M.gpusWhole })
  .max(100_000, { error: M.gpusTooMany });
/** A level the operator must give: a blank field (or null) is not silently 0. */
const requiredGpus = z.preprocess(
  (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
  gpus,
) as z.ZodType<number>;
const optionalGpus = z.preprocess(
  (v) => (v === "" || v === undefined ? null : v),
  gpus.nullable(),
) as z.ZodType<number | null>;
const model = z.string({ error: M.modelRequired }).trim().min(1, { error: M.modelRequired });
const region = z.string({ error: M.regionRequired }).trim().min(1, { error: M.regionRequired });

export const quotaLevelsSchema = z
  .object({
    nominalGpus: requiredGpus,
    borrowingLimitGpus: requiredGpus,
    /** Empty = all unused nominal may be lent. */
    lendingLimitGpus: optionalGpus,
  })
  .refine((v) => v.lendingLimitGpus === null || v.lendingLimitGpus <= v.nominalGpus, {
    error: M.lendingAboveNominal,
    path: ["lendingLimitGpus"],
  });

export const setOrgQuotaSchema = quotaLevelsSchema.and(
  z.object({
    orgId: z.uuid({ error: M.organizationRequired }),
    gpuModelId: model,
    regionCode: region,
    /** Set after the operator saw what going below guaranteed use reclaims. */
    confirmReclaim: z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean()).optional(),
  }),
);
export type SetOrgQuotaInput = z.input<typeof setOrgQuotaSchema>;

export const setQuotaDefaultSchema = quotaLevelsSchema.and(
  z.object({
    gpuModelId: model,
    regionCode: region,
    /** Set after the operator saw which organizations going below their use reclaims work from. */
    confirmReclaim: z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean()).optional(),
  }),
);

export const cohortSchema = z.object({
  name: z.string({ error: M.cohortNameRequired }).trim().min(2, { error: M.cohortNameRequired }).max(60, {
    error: M.cohortNameRequired,
  }),
  description: z.string().trim().max(500, { error: M.descriptionTooLong }).default(""),
});

export const cohortMemberSchema = z.object({
  cohortId: z.uuid({ error: M.cohortRequired }),
  orgId: z.uuid({ error: M.organizationRequired }),
  weight: z.coerce.number({ error: M.weightInvalid }).min(0.1, { error: M.weightInvalid }).max(100, {
    error: M.weightInvalid,
  }),
});

export const projectShareSchema = z.object({
  project: z.string({ error: M.projectRequired }).trim().min(1, { error: M.projectRequired }),
  gpuModelId: model,
  regionCode: region,
  /** Empty = no share (the project may use all of the organization's quota). */
  shareGpus: optionalGpus,
});

const futureDate = z.preprocess(
  (v) => (v === "" || v === null || v === undefined ? undefined : v),
  z.coerce.date({ error: M.untilInPast }).optional(),
);

export const quotaRequestSchema = z.object({
  gpuModelId: model,
  regionCode: region,
  /** The nominal quota wanted in total, in GPUs. */
  requestedGpus: z.coerce
    .number({ error: M.requestedInvalid })
    .int({ error: M.requestedInvalid })
    .min(1, { error: M.requestedInvalid })
    .max(100_000, { error: M.gpusTooMany }),
  until: futureDate,
  reason: z.string({ error: M.reasonRequired }).trim().min(3, { error: M.reasonRequired }).max(1000, {
    error: M.reasonRequired,
  }),
});

export const quotaDecisionSchema = z.object({
  decision: z.enum(["approve", "deny"], { error: M.decisionRequired }),
  /** Approve only: fewer than asked = a partial approval. Empty = all that was asked. */
  grantedGpus: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number({ error: M.grantedInvalid }).int({ error: M.grantedInvalid }).optional(),
  ),
  message: z.string().trim().max(1000, { error: M.messageTooLong }).default(""),
});

/** The organization's quota policy (admins and owners): may higher-priority work preempt lower-priority work? */
export const quotaPolicySchema = z.object(
  { preemptLowerPriority: z.boolean({ error: M.preemptChoice }) },
  { error: M.preemptChoice },
);
export type QuotaPolicyInput = z.input<typeof quotaPolicySchema>;
