import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { gpuModels, instanceTypes, nodes, pricingModel, regions } from "./catalog";
import { organizations, projects, users } from "./tenancy";

export const instanceKind = pgEnum("instance_kind", ["notebook", "container"]);
export const instanceState = pgEnum("instance_state", [
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
]);
/** Workload shape, drives the simulated GPU metrics. */
export const workloadProfile = pgEnum("workload_profile", ["training", "notebook", "inference"]);

export const images = pgTable("images", {
  /** e.g. "pytorch-2.5-cuda12.4" */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  framework: text("framework").notNull(),
  version: text("version").notNull(),
  /** Container reference, e.g. "forja/pytorch:2.5-cuda12.4" */
  reference: text("reference").notNull(),
  /** "nvidia" | "amd" */
  accelerator: text("accelerator").notNull().default("nvidia"),
  kinds: text("kinds").array().notNull(),
  active: boolean("active").notNull().default(true),
});

export type AutoShutdown = {
  idle?: { utilizationBelowPct: number; minutes: number } | null;
  maxRuntimeMinutes?: number | null;
  schedule?: { cron: string; timeZone: string } | null;
};

export const instances = pgTable(
  "instances",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    kind: instanceKind("kind").notNull(),
    state: instanceState("state").notNull(),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    instanceTypeId: text("instance_type_id")
      .notNull()
      .references(() => instanceTypes.id),
    /** Denormalized from the instance type for quota and queue queries. */
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    gpuCount: integer("gpu_count").notNull(),
    /** Compute slices per GPU held: 7 for a whole GPU, fewer for a MIG slice. */
    slicesPerGpu: smallint("slices_per_gpu").notNull(),
    pricingModel: pricingModel("pricing_model").notNull(),
    /** Higher runs first; ties are FIFO by queuedAt. */
    priority: integer("priority").notNull().default(0),
    imageId: text("image_id")
      .notNull()
      .references(() => images.id),
    command: text("command"),
    args: text("args").array(),
    env: jsonb("env").$type<Record<string, string>>(),
    exposedPort: integer("exposed_port"),
    diskGib: integer("disk_gib").notNull(),
    workload: workloadProfile("workload").notNull(),
    autoShutdown: jsonb("auto_shutdown").$type<AutoShutdown>(),
    /** Go back to the queue after a preemption: a spot interruption or borrowed capacity reclaimed. */
    autoRecover: boolean("auto_recover").notNull().default(false),
    /** Hard cap on runtime used for queue ETAs (and enforced by the cost-control issue). */
    maxRuntimeMinutes: integer("max_runtime_minutes"),
    idempotencyKey: text("idempotency_key"),
    nodeId: uuid("node_id").references(() => nodes.id),
    /** Provider-side connection details (notebook URL and token, etc.). */
    connection: jsonb("connection").$type<Record<string, string>>(),
    /** Reason of the last failure/rejection/preemption, shown to the user. */
    stateReason: text("state_reason"),
    /**
     * The engine's id of the workload (Slurm job id, Kubernetes pod name) for instances in an engine-placed
     * region; set when the engine pass submits it, kept while the engine requeues it.
     */
    providerRef: text("provider_ref"),
    /**
     * Where the engine's own queue puts a queued instance (Slurm: its rank among the partition's pending jobs and
     * `squeue --start`'s expected start), refreshed by each engine pass; cleared by every transition.
     */
    engineQueue: jsonb("engine_queue").$type<{ position: number | null; expectedStart: string | null }>(),
    /** Deterministic seed for the simulated provider. */
    simSeed: integer("sim_seed").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    queuedAt: timestamp("queued_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
    /** Deadline for the current transitional state (provisioning done, preemption notice end …). */
    stateDeadline: timestamp("state_deadline", { withTimezone: true }),
    /**
     * The provider's plan decided at placement that provisioning will fail, with this reason; applied when
     * stateDeadline passes (null = it will come up).
     */
    provisionFailure: text("provision_failure"),
    /** Spot interruptions were asked of the provider up to this time, so each window is asked once. */
    spotCheckedUntil: timestamp("spot_checked_until", { withTimezone: true }),
    /**
     * Placed beyond the organization's nominal quota on capacity borrowed from its cohort: reclaimed with
     * notice when a lender needs its nominal back. Cleared when the organization's use falls within nominal.
     */
    borrowed: boolean("borrowed").notNull().default(false),
    /**
     * Preempted to make room, within its organization's own quota, for this higher-priority instance (the
     * organization's preemption policy). While in its notice it no longer counts toward the quota, and at the
     * notice's end it stops (preempted) instead of going back to the queue: queued work counts toward the quota,
     * so requeueing it would put the organization over its own limit. Cleared when it starts again.
     */
    preemptedFor: uuid("preempted_for"),
    /** Why a queued instance waits (lib/quotas QueueReason: a code and its numbers), set by each scheduler tick. */
    queueReason: jsonb("queue_reason").$type<{ code: string; params: Record<string, string | number> }>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("instances_org_state_idx").on(t.orgId, t.state),
    index("instances_queue_idx")
      .on(t.regionCode, t.gpuModelId, t.priority, t.queuedAt)
      .where(sql`state = 'queued'`),
    // Partial: most launches send no key, and a row without one needs no entry (NULLs never conflict), so a
    // state change (never a HOT update: state is indexed) writes one index entry fewer (issue 13).
    uniqueIndex("instances_idempotency_key")
      .on(t.orgId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    // The reconciler's work list: transitional states whose deadline has passed.
    index("instances_deadline_idx")
      .on(t.stateDeadline)
      .where(sql`state in ('provisioning', 'stopping', 'terminating', 'preempting')`),
    index("instances_node_idx")
      .on(t.nodeId)
      .where(sql`state in ('provisioning', 'running', 'stopping', 'preempting')`),
  ],
);

export const instanceEvents = pgTable(
  "instance_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: uuid("org_id").notNull(),
    instanceId: uuid("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    fromState: instanceState("from_state"),
    toState: instanceState("to_state").notNull(),
    reason: text("reason").notNull(),
    /** The reason as data (lib/provisioning/event-reasons.ts), rendered in the reader's language; null = free text. */
    reasonCode: text("reason_code"),
    reasonParams: jsonb("reason_params").$type<Record<string, string | number>>(),
    actorUserId: uuid("actor_user_id"),
    /** "user" | "system" | "api" | "scheduler" | "provider" | "policy" */
    actorKind: text("actor_kind").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /**
     * Set by the metering pass once it has looked at the event (late events mark their organization dirty).
     * A flag, not an id watermark: ids are taken at insert, so a transaction can commit a lower id after a
     * higher one, and a "highest id seen" cursor would skip it forever.
     */
    meteringSeen: boolean("metering_seen").notNull().default(false),
  },
  (t) => [
    index("instance_events_instance_idx").on(t.instanceId, t.at),
    index("instance_events_org_idx").on(t.orgId),
    index("instance_events_unseen_idx").on(t.id).where(sql`not metering_seen`),
  ],
);

/**
 * One row per wait that ended (an instance went queued → provisioning), with the instance's region and GPU
 * model. Written by a trigger on instance_events (migration 0016) as the event is inserted, so every writer of
 * events agrees; the queue-time chart, the catalog's expected wait and queue insight read a range of these
 * instead of pairing each provisioning event with the one before it on every request.
 */
export const queueWaits = pgTable(
  "queue_waits",
  {
    eventId: bigint("event_id", { mode: "number" }).primaryKey(),
    instanceId: uuid("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    orgId: uuid("org_id").notNull(),
    regionCode: text("region_code").notNull(),
    gpuModelId: text("gpu_model_id").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull(),
    waitSeconds: doublePrecision("wait_seconds").notNull(),
  },
  (t) => [
    // Both carry the wait so a 7-day read is an index-only range scan, fleet-wide or for one pair.
    index("queue_waits_ended_idx").on(t.endedAt, t.regionCode, t.gpuModelId, t.waitSeconds),
    index("queue_waits_pair_idx").on(t.regionCode, t.gpuModelId, t.endedAt, t.waitSeconds),
  ],
);

/** Commitments an organization bought: GPU model × region × count for a term (1 month / 1 year). */
export const reservations = pgTable(
  "reservations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    gpuModelId: text("gpu_model_id")
      .notNull()
      .references(() => gpuModels.id),
    regionCode: text("region_code")
      .notNull()
      .references(() => regions.code),
    gpuCount: integer("gpu_count").notNull(),
    /** reserved_1m | reserved_1y */
    term: pricingModel("term").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The buyer's Idempotency-Key: a retried purchase finds this row instead of buying a second term. */
    idempotencyKey: text("idempotency_key"),
  },
  (t) => [
    index("reservations_org_idx").on(t.orgId),
    uniqueIndex("reservations_org_idempotency_key").on(t.orgId, t.idempotencyKey),
  ],
);

/**
 * Raw per-GPU samples every 10 s. Primary key (instance, gpu, at) keeps the 7-day chart query an index range
 * scan; long ranges read the rollups.
 */
export const metricSamples = pgTable(
  "metric_samples",
  {
    instanceId: uuid("instance_id").notNull(),
    gpuIndex: smallint("gpu_index").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    orgId: uuid("org_id").notNull(),
    utilizationPct: real("utilization_pct").notNull(),
    memoryUsedGib: real("memory_used_gib").notNull(),
    powerWatts: real("power_watts").notNull(),
    temperatureC: real("temperature_c").notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.gpuIndex, t.at] })],
);

/** 5-minute rollups of metric_samples (averages and max), for 24 h – 30 d charts and energy accounting. */
export const metricRollups = pgTable(
  "metric_rollups_5m",
  {
    instanceId: uuid("instance_id").notNull(),
    gpuIndex: smallint("gpu_index").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    orgId: uuid("org_id").notNull(),
    samples: integer("samples").notNull(),
    utilizationAvg: real("utilization_avg").notNull(),
    utilizationMax: real("utilization_max").notNull(),
    memoryUsedAvg: real("memory_used_avg").notNull(),
    powerAvg: real("power_avg").notNull(),
    temperatureAvg: real("temperature_avg").notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.gpuIndex, t.bucket] })],
);

/**
 * Chart levels (10 s, 1 min, 20 min, 1 h; `level_s` in seconds): one row per instance and bucket, its GPUs'
 * aggregates side by side in arrays (`gpus[k]` is the GPU of `samples[k]`, `utilization_avg[k]`, ...), so a
 * chart reads one row per bucket whatever the GPU count: at most ~1,440 rows for any range up to 30 days. The
 * 10-second and 1-minute levels come from raw samples, the coarser ones from the 5-minute rollups, so those
 * outlive the raw-sample retention; the 10-second level is pruned with the raw samples. Same weighting as
 * metric_rollups_5m (averages weighted by `samples`).
 */
export const metricChartLevels = pgTable(
  "metric_chart_levels",
  {
    instanceId: uuid("instance_id").notNull(),
    levelS: integer("level_s").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    orgId: uuid("org_id").notNull(),
    gpus: smallint("gpus").array().notNull(),
    samples: integer("samples").array().notNull(),
    utilizationAvg: real("utilization_avg").array().notNull(),
    utilizationMax: real("utilization_max").array().notNull(),
    memoryUsedAvg: real("memory_used_avg").array().notNull(),
    powerAvg: real("power_avg").array().notNull(),
    temperatureAvg: real("temperature_avg").array().notNull(),
    // The row's all-GPU figures, written with the arrays: the sample count, per metric the weighted sum
    // Σ avg[k]::float8 × samples[k] in array order (what a chart sums for the all-GPU mean) and the peak (the
    // largest element of its max array), so a chart reads three columns instead of ~4 subscripts per GPU.
    samplesTotal: integer("samples_total").notNull(),
    utilizationWsum: doublePrecision("utilization_wsum").notNull(),
    utilizationPeak: real("utilization_peak").notNull(),
    memoryUsedWsum: doublePrecision("memory_used_wsum").notNull(),
    memoryUsedPeak: real("memory_used_peak").notNull(),
    powerWsum: doublePrecision("power_wsum").notNull(),
    powerPeak: real("power_peak").notNull(),
    temperatureWsum: doublePrecision("temperature_wsum").notNull(),
    temperaturePeak: real("temperature_peak").notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.levelS, t.bucket] })],
);
