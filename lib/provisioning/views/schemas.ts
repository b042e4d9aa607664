import { z } from "zod";
import "zod-openapi";
import { PRICING_MODELS } from "@/lib/catalog";
import { QUEUE_REASON_CODES } from "@/lib/quotas";
import { INSTANCE_STATES } from "../states";

/**
 * The instance views' JSON contract: what the console's first render, the route handlers React Query polls and
 * /api/v1 all answer (dates as ISO strings). The OpenAPI document is built from these schemas and the view
 * types are inferred from them, so the document, the routes and the components cannot drift apart.
 */
export const isoTimeSchema = z.iso.datetime({ offset: true }).meta({ example: "2030-01-06T09:00:00.000Z" });
export const pricingModelSchema = z.enum(PRICING_MODELS).meta({ id: "PricingModel" });
const isoTime = isoTimeSchema;
const pricingModel = pricingModelSchema;
const state = z.enum(INSTANCE_STATES).meta({ id: "InstanceState" });

export const INSTANCE_ACTIONS = ["stop", "start", "terminate", "cancel"] as const;
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number];

const instanceRowShape = {
  id: z.uuid(),
  name: z.string(),
  kind: z.enum(["notebook", "container"]),
  state,
  stateReason: z.string().nullable(),
  borrowed: z.boolean().meta({
    description:
      "Runs beyond the organization's nominal quota on capacity borrowed from its cohort; reclaimed with notice",
  }),
  queueReason: z
    .object({
      code: z.enum(QUEUE_REASON_CODES),
      params: z.record(z.string(), z.union([z.string(), z.number()])),
    })
    .nullable()
    .meta({
      id: "QueueReason",
      description: "Why a queued instance waits (amounts in GPUs); null otherwise",
    }),
  regionCode: z.string(),
  instanceTypeId: z.string(),
  gpuModelName: z.string(),
  gpuCount: z.int(),
  migProfile: z.string().nullable().meta({ description: "MIG profile of a slice of one GPU, else null" }),
  pricingModel,
  projectSlug: z.string(),
  projectName: z.string(),
  createdAt: isoTime,
  actions: z
    .array(z.enum(INSTANCE_ACTIONS))
    .meta({ description: "Verbs legal now for the caller (empty for viewers)" }),
  costUsd: z.number().nullable().meta({ description: "Estimated cost so far (hours run × catalog price)" }),
};
export const instanceRowSchema = z.object(instanceRowShape).meta({ id: "InstanceSummary" });

export const instanceListSchema = z
  .object({
    items: z.array(instanceRowSchema),
    total: z.int(),
    page: z.int(),
    pageSize: z.int(),
    // Relative times are computed against the server's clock, not the browser's.
    now: isoTime.meta({ description: "Server time of the answer" }),
  })
  .meta({ id: "InstanceList" });

export const WAIT_METHODS = [
  "capacity",
  "runtime",
  "history",
  "unknown",
  "no_capacity",
  "cluster",
  "quota",
] as const;
const waitMethod = z.enum(WAIT_METHODS);

const queueAlternativeSchema = z.object({
  kind: z.enum(["region", "spot", "gpu_model", "mig"]),
  regionCode: z.string(),
  instanceTypeId: z.string(),
  gpuModelName: z.string(),
  gpuCount: z.int(),
  migProfile: z.string().nullable(),
  gpuMemoryGib: z.number(),
  pricingModel,
  usdPerHour: z.number(),
});

const queueSchema = z
  .object({
    position: z.int().meta({ description: "1 = next in its queue" }),
    etaSeconds: z.number().nullable(),
    method: waitMethod,
    alternatives: z.array(queueAlternativeSchema),
  })
  .meta({ id: "QueueInsight", description: "Present while the instance is queued" });

const eventSchema = z.object({
  id: z.int(),
  from: state.nullable(),
  to: state,
  reason: z.string().meta({ description: "Why, in English (the console shows it in the reader's language)" }),
  reasonCode: z
    .string()
    .nullable()
    .meta({ description: "The reason as a stable code (null: free text, e.g. an operator's note)" }),
  reasonParams: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  actorKind: z.string(),
  actorEmail: z.string().nullable(),
  at: isoTime,
});

/** The launch spec's fields the row does not show, as launched: what `forja apply` compares a file with. */
const launchedSpecSchema = z
  .object({
    command: z.string().nullable(),
    args: z.array(z.string()).nullable(),
    env: z
      .record(z.string(), z.string())
      .nullable()
      .meta({ description: "Null for viewers: values may be secrets (members and up see them)" }),
    autoShutdown: z
      .object({
        idle: z.object({ utilizationBelowPct: z.int(), minutes: z.int() }).nullish(),
        maxRuntimeMinutes: z.int().nullish(),
        schedule: z.object({ cron: z.string(), timeZone: z.string() }).nullish(),
      })
      .nullable(),
    maxRuntimeMinutes: z.int().nullable(),
    priority: z.int(),
    autoRecover: z.boolean(),
  })
  .meta({ id: "LaunchedSpec" });

const costSchema = z.object({
  hours: z.number(),
  usdPerHour: z.number().nullable(),
  usd: z.number().nullable(),
});

export const instanceDetailSchema = z
  .object({
    ...instanceRowShape,
    imageId: z.string(),
    nodeName: z.string().nullable(),
    diskGib: z.int(),
    exposedPort: z.int().nullable(),
    connection: z.record(z.string(), z.string()).nullable(),
    startedAt: isoTime.nullable(),
    events: z.array(eventSchema),
    queue: queueSchema.nullable(),
    cost: costSchema.nullable(),
    spec: launchedSpecSchema,
    now: isoTime,
  })
  .meta({ id: "Instance" });

export const launchPreviewSchema = z
  .object({
    instanceTypeId: z.string(),
    regionCode: z.string(),
    gpuModelName: z.string(),
    gpusNeeded: z
      .number()
      .meta({ description: "GPU-equivalents taken from the quota (a MIG slice: its share)" }),
    prices: z.record(pricingModel, z.number().nullable()),
    allowed: z.boolean(),
    quota: z.object({
      gpuModelId: z.string(),
      regionCode: z.string(),
      limitGpus: z.number().meta({ description: "Nominal plus borrowing limit" }),
      nominalGpus: z.number().meta({ description: "Guaranteed quota" }),
      borrowingLimitGpus: z.number(),
      usedGpus: z.number(),
      leftGpus: z.number(),
      guaranteedGpus: z.number().meta({ description: "Part of this launch within nominal" }),
      borrowedGpus: z
        .number()
        .meta({ description: "Part of this launch beyond nominal: borrowed, reclaimed with notice" }),
      borrowableNowGpus: z.number().meta({ description: "Idle cohort capacity borrowable now" }),
      fromDefault: z.boolean(),
    }),
    expectedWait: z
      .object({ etaSeconds: z.number().nullable(), method: waitMethod, ahead: z.int() })
      .nullable(),
  })
  .meta({ id: "LaunchPreview" });

type Flat<T> = { [K in keyof T]: T[K] };
export type InstanceStateName = z.output<typeof state>;
export type InstanceRowView = Flat<z.output<typeof instanceRowSchema>>;
export type InstanceListView = Flat<z.output<typeof instanceListSchema>>;
export type InstanceEventView = z.output<typeof eventSchema>;
export type WaitMethod = (typeof WAIT_METHODS)[number];
export type QueueAlternativeView = z.output<typeof queueAlternativeSchema>;
export type QueueView = z.output<typeof queueSchema>;
export type CostView = z.output<typeof costSchema>;
export type InstanceDetailView = Flat<z.output<typeof instanceDetailSchema>>;
export type LaunchPreviewView = Flat<z.output<typeof launchPreviewSchema>>;

/** What "stop selected" answers: the ids stopped, and each failure with its reason. */
export type BulkStopResult = { stopped: string[]; failed: Array<{ id: string; message: string }> };
