import { Cron } from "croner";
import { z } from "zod";

/**
 * The launch spec, shared by the launch form, the API and the library (no server imports here, so a client
 * component may validate with it too). Numbers are numbers: the form adapter converts its strings first.
 */
export const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const DISK_GIB_MIN = 10;
export const DISK_GIB_MAX = 4096;
export const DISK_GIB_DEFAULT = 100;
export const MAX_RUNTIME_MINUTES_MAX = 30 * 24 * 60;
/** Higher runs first. Members may only lower their own work (batch jobs); admins and owners may raise it. */
export const PRIORITY_MIN = -100;
export const PRIORITY_MAX = 100;
export const DEFAULT_PRIORITY = 0;

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
      utilizationBelowPct: z.int().min(1, "At least 1 %").max(100, "At most 100 %"),
      minutes: z.int().min(5, "At least 5 minutes").max(1440, "At most 1440 minutes (a day)"),
    })
    .nullish(),
  maxRuntimeMinutes: z.int().min(10, "At least 10 minutes").max(MAX_RUNTIME_MINUTES_MAX).nullish(),
  schedule: z
    .object({
      cron: z
        .string()
        .trim()
        .min(1, "Enter a cron expression")
        .refine(validCron, "Not a valid cron expression"),
      timeZone: z.string().trim().refine(validTimeZone, "Not a known time zone (use e.g. Europe/Madrid)"),
    })
    .nullish(),
});

export const launchSpecSchema = z
  .object({
    kind: z.enum(["notebook", "container"], { error: "Choose notebook or container" }),
    name: z
      .string({ error: "Enter a name" })
      .trim()
      .min(1, "Enter a name")
      .max(63, "At most 63 characters")
      .regex(
        DNS_LABEL,
        "Use lower-case letters, digits and hyphens; start with a letter and end with a letter or digit",
      ),
    /** Project slug or id, in the organization. */
    project: z.string({ error: "Choose a project" }).trim().min(1, "Choose a project"),
    region: z.string({ error: "Choose a region" }).trim().min(1, "Choose a region"),
    instanceType: z.string({ error: "Choose an instance type" }).trim().min(1, "Choose an instance type"),
    pricingModel: z
      .enum(["on_demand", "spot", "reserved"], { error: "Choose on-demand, spot or reserved" })
      .default("on_demand"),
    image: z.string({ error: "Choose an image" }).trim().min(1, "Choose an image"),
    command: z.string().max(1024, "At most 1024 characters").nullish(),
    args: z
      .array(z.string().max(1024, "At most 1024 characters per argument"))
      .max(64, "At most 64 arguments")
      .nullish(),
    env: z
      .record(z.string().regex(ENV_NAME, "Variable names use letters, digits and _"), z.string().max(4096))
      .refine((e) => Object.keys(e).length <= 64, "At most 64 variables")
      .nullish(),
    exposedPort: z
      .int("Enter a whole number")
      .min(1, "Ports are 1–65535")
      .max(65535, "Ports are 1–65535")
      .nullish(),
    diskGib: z
      .int("Enter a whole number of GiB")
      .min(DISK_GIB_MIN, `At least ${DISK_GIB_MIN} GiB`)
      .max(DISK_GIB_MAX, `At most ${DISK_GIB_MAX} GiB`)
      .default(DISK_GIB_DEFAULT),
    autoShutdown: autoShutdownSchema.nullish(),
    maxRuntimeMinutes: z
      .int("Enter a whole number of minutes")
      .min(1, "At least 1 minute")
      .max(MAX_RUNTIME_MINUTES_MAX, "At most 30 days")
      .nullish(),
    priority: z
      .int("Enter a whole number")
      .min(PRIORITY_MIN, `At least ${PRIORITY_MIN}`)
      .max(PRIORITY_MAX, `At most ${PRIORITY_MAX}`)
      .default(DEFAULT_PRIORITY),
    autoRecover: z.boolean().default(false),
    workload: z.enum(["training", "notebook", "inference"]).nullish(),
    idempotencyKey: z.string().trim().min(1).max(200, "At most 200 characters").nullish(),
  })
  .superRefine((spec, ctx) => {
    if (spec.kind === "notebook") {
      for (const field of ["command", "args", "env", "exposedPort"] as const) {
        if (spec[field] != null) {
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: "Only containers take this; notebooks do not",
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
});
export type ListInstancesFilter = z.input<typeof listInstancesSchema>;
