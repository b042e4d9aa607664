import { z } from "zod";
import {
  BUDGET_EMAILS_MAX,
  BUDGET_NAME_MAX,
  BUDGET_PCT_MAX,
  BUDGET_PCT_MIN,
  BUDGET_RECIPIENTS_MAX,
  BUDGET_THRESHOLDS_MAX,
  BUDGET_FIELD_MESSAGES as M,
} from "./field-messages";

export const BUDGET_ACTIONS = ["notify", "block_launches", "stop_instances"] as const;
export type BudgetActionAt100 = (typeof BUDGET_ACTIONS)[number];

const threshold = z.object(
  {
    kind: z.enum(["actual", "forecast"], { error: M.thresholdKind }),
    pct: z.coerce
      .number({ error: M.pctRequired })
      .int(M.pctWhole)
      .min(BUDGET_PCT_MIN, M.pctMin)
      .max(BUDGET_PCT_MAX, M.pctMax),
  },
  { error: M.thresholdInvalid },
);

/** The budget form and API body; the same schema validates create and update. */
export const budgetSchema = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(BUDGET_NAME_MAX, M.nameTooLong),
  /** Project slug or id; empty = the whole organization. */
  project: z
    .string({ error: M.projectInvalid })
    .trim()
    .transform((v) => v || null)
    .nullish(),
  /** Inference service name or id: the budget counts that service's replicas only (its project's scope). */
  service: z
    .string({ error: M.serviceInvalid })
    .trim()
    .transform((v) => v || null)
    .nullish(),
  amountUsd: z.coerce
    .number({ error: M.amountRequired })
    .positive(M.amountPositive)
    .max(100_000_000, M.amountMax)
    .refine((n) => Math.round(n * 100) === n * 100 || Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      message: M.amountDecimals,
    }),
  thresholds: z
    .array(threshold, { error: M.thresholdsMin })
    .min(1, M.thresholdsMin)
    .max(BUDGET_THRESHOLDS_MAX, M.thresholdsMax)
    .refine((list) => new Set(list.map((t) => `${t.kind}:${t.pct}`)).size === list.length, {
      message: M.thresholdsUnique,
    })
    .optional(),
  recipientUserIds: z
    .array(z.uuid(M.recipientsInvalid), { error: M.recipientsInvalid })
    .max(BUDGET_RECIPIENTS_MAX, M.recipientsMax)
    .default([]),
  recipientEmails: z
    .array(
      z.email(M.emailsInvalid).transform((e) => e.toLowerCase()),
      { error: M.emailsInvalid },
    )
    .max(BUDGET_EMAILS_MAX, M.emailsMax)
    .default([]),
  actionAt100: z.enum(BUDGET_ACTIONS, { error: M.actionInvalid }).default("notify"),
  graceMinutes: z.coerce
    .number({ error: M.minutesRequired })
    .int(M.minutesWhole)
    .min(0, M.graceMin)
    .max(7 * 24 * 60, M.graceMax)
    .default(60),
});
export type BudgetInput = z.input<typeof budgetSchema>;
export type BudgetValues = z.output<typeof budgetSchema>;
