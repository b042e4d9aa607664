import { Cron } from "croner";
import { z } from "zod";
import {
  DEFAULT_PRIORITY,
  DISK_GIB_MAX,
  DISK_GIB_MIN,
  LAUNCH_FIELD_MESSAGES as M,
  PRIORITY_MAX,
  PRIORITY_MIN,
} from "./field-messages";

export { DEFAULT_PRIORITY, DISK_GIB_MAX, DISK_GIB_MIN, PRIORITY_MAX, PRIORITY_MIN };

/**
 * The launch spec, shared by the launch form, the API and the library (no server imports here, so a client
 * component may validate with it too). Numbers are numbers: the form adapter converts its strings first.
 */
export const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const DISK_GIB_DEFAULT = 100;
export const MAX_RUNTIME_MINUTES_MAX = 30 * 24 * 60;

function validCron(expr: string): boolean {
  try {
    new Cron(expr, { paused: true });
    return true;
  } catch {
    return false;
  }
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const autoShutdownSchema = z.object({
  idle: z
    .object({
      utilizationBelowPct: z.int().min(1, M.pctMin).max(100, M.pctMax),
      minutes: z.int().min(5, M.idleMinutesMin).max(1440, M.idleMinutesMax),
    })
    .nullish(),
  maxRuntimeMinutes: z.int().min(10, M.runtimeMin10).max(MAX_RUNTIME_MINUTES_MAX).nullish(),
  schedule: z
    .object({
      cron: z.string().trim().min(1, M.cronRequired).refine(validCron, M.cronInvalid),
      timeZone: z.string().trim().refine(validTimeZone, M.timeZoneInvalid),
    })
    .nullish(),
});

export const launchSpecSchema = z
  .object({
    kind: z.enum(["notebook", "container"], { error: M.kindInvalid }),
    name: z
      .string({ error: M.nameRequired })
      .trim()
      .min(1, M.nameRequired)
      .max(63, M.nameTooLong)
      .regex(DNS_LABEL, M.namePattern),
    /** Project slug or id, in the organization. */
    project: z.string({ error: M.projectRequired }).trim().min(1, M.projectRequired),
    region: z.string({ error: M.regionRequired }).trim().min(1, M.regionRequired),
    instanceType: z.string({ error: M.instanceTypeRequired }).trim().min(1, M.instanceTypeRequired),
    pricingModel: z.enum(["on_demand", "spot", "reserved"], { error: M.pricingInvalid }).default("on_demand"),
    image: z.string({ error: M.imageRequired }).trim().min(1, M.imageRequired),
    command: z.string().max(1024, M.commandTooLong).nullish(),
    args: z.array(z.string().max(1024, M.argTooLong)).max(64, M.argsTooMany).nullish(),
    env: z
      .record(z.string().regex(ENV_NAME, M.envName), z.string().max(4096))
      .refine((e) => Object.keys(e).length <= 64, M.envTooMany)
      .nullish(),
    exposedPort: z.int(M.wholeNumber).min(1, M.portRange).max(65535, M.portRange).nullish(),
    diskGib: z
      .int(M.diskWhole)
      .min(DISK_GIB_MIN, M.diskMin)
      .max(DISK_GIB_MAX, M.diskMax)
      .default(DISK_GIB_DEFAULT),
    autoShutdown: autoShutdownSchema.nullish(),
    maxRuntimeMinutes: z
      .int(M.minutesWhole)
      .min(1, M.runtimeMin)
      .max(MAX_RUNTIME_MINUTES_MAX, M.runtimeMax)
      .nullish(),
    priority: z
      .int(M.wholeNumber)
      .min(PRIORITY_MIN, M.priorityMin)
      .max(PRIORITY_MAX, M.priorityMax)
      .default(DEFAULT_PRIORITY),
    autoRecover: z.boolean().default(false),
    workload: z.enum(["training", "notebook", "inference"]).nullish(),
    idempotencyKey: z.string().trim().min(1).max(200, M.keyTooLong).nullish(),
  })
  .superRefine((spec, ctx) => {
    if (spec.kind === "notebook") {
      for (const field of ["command", "args", "env", "exposedPort"] as const) {
        if (spec[field] != null) {
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: M.containerOnly,
          });
        }
      }
    }
  });

export type LaunchSpecInput = z.input<typeof launchSpecSchema>;
export type LaunchSpec = z.output<typeof launchSpecSchema>;

export const listInstancesSchema = z.object({
  project: z.string().trim().min(1).nullish(),
  state: z
    .enum([
      "requested",
      "queued",
      "provisioning",
      "running",
      "stopping",
      "stopped",
      "preempting",
      "preempted",
      "terminating",
      "terminated",
      "rejected",
      "cancelled",
      "failed",
    ])
    .nullish(),
  region: z.string().trim().min(1).nullish(),
  page: z.int().min(1).default(1),
  pageSize: z.int().min(1).max(200).default(50),
  /** Keyset paging (the API's cursor): only instances after this one in the list's order. */
  after: z.uuid().nullish(),
});
export type ListInstancesFilter = z.input<typeof listInstancesSchema>;
