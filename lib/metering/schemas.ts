import { z } from "zod";

/** Cost explorer inputs, shared by the console (URL search params) and the API. */
export const COST_GROUPS = ["project", "gpu_model", "region", "pricing_model"] as const;
export type CostGroup = (typeof COST_GROUPS)[number];

const MAX_RANGE_DAYS = 366;

const range = {
  from: z.coerce.date({ error: "Enter a start date" }),
  /** Exclusive. */
  to: z.coerce.date({ error: "Enter an end date" }),
  project: z.string().trim().min(1).nullish(),
};

type Range = { from: Date; to: Date };
const ordered = (r: Range) => r.to.getTime() > r.from.getTime();
const notTooLong = (r: Range) => r.to.getTime() - r.from.getTime() <= MAX_RANGE_DAYS * 86_400_000;

export const costRangeSchema = z
  .object(range)
  .refine(ordered, { path: ["to"], message: "The end must be after the start" })
  .refine(notTooLong, { path: ["to"], message: `At most ${MAX_RANGE_DAYS} days` });
export type CostRangeInput = z.input<typeof costRangeSchema>;

export const dailyCostSchema = z
  .object({
    ...range,
    groupBy: z
      .enum(COST_GROUPS, { error: "Group by project, GPU model, region or pricing model" })
      .default("project"),
  })
  .refine(ordered, { path: ["to"], message: "The end must be after the start" })
  .refine(notTooLong, { path: ["to"], message: `At most ${MAX_RANGE_DAYS} days` });
export type DailyCostInput = z.input<typeof dailyCostSchema>;

export const topInstancesSchema = z
  .object({ ...range, limit: z.coerce.number().int().min(1).max(100).default(10) })
  .refine(ordered, { path: ["to"], message: "The end must be after the start" })
  .refine(notTooLong, { path: ["to"], message: `At most ${MAX_RANGE_DAYS} days` });
export type TopInstancesInput = z.input<typeof topInstancesSchema>;

export const monthSchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2030-01")
    .nullish(),
  project: z.string().trim().min(1).nullish(),
});
export type MonthInput = z.input<typeof monthSchema>;

export const RESERVATION_TERMS = ["reserved_1m", "reserved_1y"] as const;

export const reservationSchema = z.object({
  gpuModelId: z.string({ error: "Choose a GPU model" }).trim().min(1, "Choose a GPU model"),
  regionCode: z.string({ error: "Choose a region" }).trim().min(1, "Choose a region"),
  gpuCount: z.coerce
    .number({ error: "Enter a number of GPUs" })
    .int("Enter a whole number of GPUs")
    .min(1, "At least 1 GPU")
    .max(512, "At most 512 GPUs"),
  term: z.enum(RESERVATION_TERMS, { error: "Choose a 1-month or 1-year term" }),
  /** Same key again → the reservation it bought, not a second commitment (a retried request is safe). */
  idempotencyKey: z.string().trim().min(1).max(200, "At most 200 characters").nullish(),
});
export type ReservationInput = z.input<typeof reservationSchema>;
