import { z } from "zod";

export const BUDGET_ACTIONS = ["notify", "block_launches", "stop_instances"] as const;
export type BudgetActionAt100 = (typeof BUDGET_ACTIONS)[number];

const threshold = z.object({
  kind: z.enum(["actual", "forecast"], { error: "Choose actual or forecast" }),
  pct: z.coerce
    .number({ error: "Enter a percentage" })
    .int("Enter a whole percentage")
    .min(1, "At least 1 %")
    .max(1000, "At most 1000 %"),
});

/** The budget form and API body; the same schema validates create and update. */
export const budgetSchema = z.object({
  name: z.string({ error: "Enter a name" }).trim().min(1, "Enter a name").max(80, "At most 80 characters"),
  /** Project slug or id; empty = the whole organization. */
  project: z
    .string()
    .trim()
    .transform((v) => v || null)
    .nullish(),
  amountUsd: z.coerce
    .number({ error: "Enter an amount in USD" })
    .positive("Enter an amount above zero")
    .max(100_000_000, "At most $100,000,000")
    .refine((n) => Math.round(n * 100) === n * 100 || Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      message: "Use at most two decimals",
    }),
  thresholds: z
    .array(threshold)
    .min(1, "Keep at least one threshold")
    .max(12, "At most 12 thresholds")
    .refine((list) => new Set(list.map((t) => `${t.kind}:${t.pct}`)).size === list.length, {
      message: "Each threshold may appear once",
    })
    .optional(),
  recipientUserIds: z
    .array(z.uuid("Choose members of the organization"))
    .max(50, "At most 50 members")
    .default([]),
  recipientEmails: z
    .array(z.email("Enter valid email addresses").transform((e) => e.toLowerCase()))
    .max(20, "At most 20 extra addresses")
    .default([]),
  actionAt100: z
    .enum(BUDGET_ACTIONS, { error: "Choose notify, block launches or stop instances" })
    .default("notify"),
  graceMinutes: z.coerce
    .number({ error: "Enter minutes" })
    .int("Enter whole minutes")
    .min(0, "At least 0 minutes")
    .max(7 * 24 * 60, "At most 7 days")
    .default(60),
});
export type BudgetInput = z.input<typeof budgetSchema>;
export type BudgetValues = z.output<typeof budgetSchema>;
