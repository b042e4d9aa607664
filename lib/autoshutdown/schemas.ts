import { z } from "zod";

const minutes = (min: number, max: number) =>
  z.coerce
    .number({ error: "Enter minutes" })
    .int("Enter whole minutes")
    .min(min, `At least ${min} minutes`)
    .max(max, `At most ${max} minutes`);
const pct = z.coerce
  .number({ error: "Enter a percentage" })
  .int("Enter a whole percentage")
  .min(1, "At least 1 %")
  .max(100, "At most 100 %");
const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (v === "" || v === undefined ? null : v), s.nullable()).default(null);

/** An auto-shutdown policy (admins): scope, defaults for launches that leave a rule out, and member limits. */
export const policySchema = z
  .object({
    /** Project slug or id; empty = every project. */
    project: z
      .string()
      .trim()
      .transform((v) => v || null)
      .nullish(),
    /** GPU model id; empty = every model. */
    gpuModelId: z
      .string()
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
      .number()
      .int("Enter a whole number")
      .min(0, "At least 0")
      .max(20, "At most 20")
      .default(3),
    warningMinutes: minutes(1, 120).default(10),
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (p.idleRequired && p.defaultIdleMinutes === null) {
      issue("defaultIdleMinutes", "Set a default idle time when idle shutdown is required");
    }
    if (
      p.defaultIdleMinutes !== null &&
      p.idleMinutesMax !== null &&
      p.defaultIdleMinutes > p.idleMinutesMax
    ) {
      issue("defaultIdleMinutes", "The default cannot be above the limit");
    }
    if (p.idlePctMin !== null && p.defaultIdlePct < p.idlePctMin) {
      issue("defaultIdlePct", "The default cannot be below the minimum");
    }
    if (
      p.defaultMaxRuntimeMinutes !== null &&
      p.maxRuntimeMinutesMax !== null &&
      p.defaultMaxRuntimeMinutes > p.maxRuntimeMinutesMax
    ) {
      issue("defaultMaxRuntimeMinutes", "The default cannot be above the limit");
    }
    if (p.maxRuntimeMinutesMax !== null && p.defaultMaxRuntimeMinutes === null) {
      issue("defaultMaxRuntimeMinutes", "Set a default max runtime when you set a limit");
    }
  });
export type PolicyInput = z.input<typeof policySchema>;
export type PolicyValues = z.output<typeof policySchema>;

export const snoozeSchema = z.object({
  minutes: z.coerce
    .number({ error: "Enter minutes" })
    .int("Enter whole minutes")
    .min(5, "At least 5 minutes")
    .max(1440, "At most 1440 minutes"),
});
export type SnoozeInput = z.input<typeof snoozeSchema>;
