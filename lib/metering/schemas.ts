import { z } from "zod";
import { COST_RANGE_MAX_DAYS, COST_FIELD_MESSAGES as M, RESERVATION_GPUS_MAX } from "./field-messages";

/** Cost explorer inputs, shared by the console (URL search params) and the API. */
export const COST_GROUPS = ["project", "gpu_model", "region", "pricing_model", "service"] as const;
export type CostGroup = (typeof COST_GROUPS)[number];

const project = z.string({ error: M.projectInvalid }).trim().min(1, M.projectInvalid).nullish();
const range = {
  from: z.coerce.date({ error: M.startRequired }),
  /** Exclusive. */
  to: z.coerce.date({ error: M.endRequired }),
  project,
};

type Range = { from: Date; to: Date };
const ordered = (r: Range) => r.to.getTime() > r.from.getTime();
const notTooLong = (r: Range) => r.to.getTime() - r.from.getTime() <= COST_RANGE_MAX_DAYS * 86_400_000;
/** The checks every range shares, at the end date. */
const checked = <S extends z.ZodType<Range>>(s: S) =>
  s
    .refine(ordered, { path: ["to"], message: M.endAfterStart })
    .refine(notTooLong, { path: ["to"], message: M.rangeTooLong });

export const costRangeSchema = checked(z.object(range));
export type CostRangeInput = z.input<typeof costRangeSchema>;

export const dailyCostSchema = checked(
  z.object({
    ...range,
    groupBy: z.enum(COST_GROUPS, { error: M.groupInvalid }).default("project"),
  }),
);
export type DailyCostInput = z.input<typeof dailyCostSchema>;

export const topInstancesSchema = checked(
  z.object({
    ...range,
    limit: z.coerce
      .number({ error: M.limitInvalid })
      .int(M.limitInvalid)
      .min(1, M.limitInvalid)
      .max(100, M.limitInvalid)
      .default(10),
  }),
);
export type TopInstancesInput = z.input<typeof topInstancesSchema>;

export const monthSchema = z.object({
  month: z
    .string({ error: M.monthFormat })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, M.monthFormat)
    .nullish(),
  project,
});
export type MonthInput = z.input<typeof monthSchema>;

export const RESERVATION_TERMS = ["reserved_1m", "reserved_1y"] as const;

export const reservationSchema = z.object({
  gpuModelId: z.string({ error: M.modelRequired }).trim().min(1, M.modelRequired),
  regionCode: z.string({ error: M.regionRequired }).trim().min(1, M.regionRequired),
  gpuCount: z.coerce
    .number({ error: M.gpusRequired })
    .int(M.gpusWhole)
    .min(1, M.gpusMin)
    .max(RESERVATION_GPUS_MAX, M.gpusMax),
  term: z.enum(RESERVATION_TERMS, { error: M.termInvalid }),
  /** Same key again → the reservation it bought, not a second commitment (a retried request is safe). */
  idempotencyKey: z
    .string({ error: M.keyInvalid })
    .trim()
    .min(1, M.keyInvalid)
    .max(200, M.keyTooLong)
    .nullish(),
});
export type ReservationInput = z.input<typeof reservationSchema>;
