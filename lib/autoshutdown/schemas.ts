import { z } from "zod";
import { AUTOSHUTDOWN_FIELD_MESSAGES as M } from "./field-messages";

const MIN = { 1: M.minutesMin1, 5: M.minutesMin5, 10: M.minutesMin10 } as const;
const MAX = { 120: M.minutesMax120, 1440: M.minutesMax1440, 43200: M.minutesMax43200 } as const;
const minutes = (min: keyof typeof MIN, max: keyof typeof MAX) =>
  z.coerce.number({ error: M.minutesRequired }).int(M.minutesWhole).min(min, MIN[min]).max(max, MAX[max]);
const pct = z.coerce.number({ error: M.pctRequired }).int(M.pctWhole).min(1, M.pctMin).max(100, M.pctMax);
const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (v === "" || v === undefined ? null : v), s.nullable()).default(null);

/** An auto-shutdown policy (admins): scope, defaults for launches that leave a rule out, and member limits. */
export const policySchema = z
  .object({
    /** Project slug or id; empty = every project. */
    project: z
      .string({ error: M.projectInvalid })
      .trim()
      .transform((v) => v || null)
      .nullish(),
    /** GPU model id; empty = every model. */
    gpuModelId: z
      .string({ error: M.modelInvalid })
      .trim()
      .transform((v) => v || null)
      .nullish(),
    defaultIdlePct: pct.default(5),
    defaultIdleMinutes: optional(minutes(5, 1440)),
    idleRequired: z.coerce.boolean().default(false),
    idleMinutesMax: optional(minutes(5, 1440)),
    idlePctMin: optional(pct),
    defaultMaxRuntimeMinutes: optional(minutes(10, 43_200)),
    maxRuntimeMinutesMax: optional(minutes(10, 43_200)),
    allowSnooze: z.coerce.boolean().default(true),
    snoozeMinutesMax: minutes(5, 1440).default(60),
    maxSnoozes: z.coerce
      .number({ error: M.countWhole })
      .int(M.countWhole)
      .min(0, M.countMin)
      .max(20, M.countMax)
      .default(3),
    warningMinutes: minutes(1, 120).default(10),
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (p.idleRequired && p.defaultIdleMinutes === null) {
      issue("defaultIdleMinutes", M.idleDefaultRequired);
    }
    if (
      p.defaultIdleMinutes !== null &&
      p.idleMinutesMax !== null &&
      p.defaultIdleMinutes > p.idleMinutesMax
    ) {
      issue("defaultIdleMinutes", M.defaultAboveLimit);
    }
    if (p.idlePctMin !== null && p.defaultIdlePct < p.idlePctMin) {
      issue("defaultIdlePct", M.defaultBelowMinimum);
    }
    if (
      p.defaultMaxRuntimeMinutes !== null &&
      p.maxRuntimeMinutesMax !== null &&
      p.defaultMaxRuntimeMinutes > p.maxRuntimeMinutesMax
    ) {
      issue("defaultMaxRuntimeMinutes", M.defaultAboveLimit);
    }
    if (p.maxRuntimeMinutesMax !== null && p.defaultMaxRuntimeMinutes === null) {
      issue("defaultMaxRuntimeMinutes", M.runtimeDefaultRequired);
    }
  });
export type PolicyInput = z.input<typeof policySchema>;
export type PolicyValues = z.output<typeof policySchema>;

export const snoozeSchema = z.object({ minutes: minutes(5, 1440) });
export type SnoozeInput = z.input<typeof snoozeSchema>;
