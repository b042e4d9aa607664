import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { pricingModel } from "./catalog";
import { instances } from "./provisioning";
import { organizations, projects, users } from "./tenancy";

/** The scaling and serving settings of a service (lib/services/schemas.ts ServiceSpec, stored as validated). */
export type ServiceSpecColumn = {
  image: string;
  command: string | null;
  args: string[] | null;
  env: Record<string, string> | null;
  port: number;
  instanceType: string;
  region: string;
  pricingModel: "on_demand" | "spot";
  onDemandFallback: boolean;
  minReplicas: number;
  maxReplicas: number;
  metric: "rps" | "concurrency";
  target: number;
  scaleUpDelaySeconds: number;
  scaleDownDelaySeconds: number;
  scaleToZeroGraceSeconds: number;
  readiness: { path: string; intervalSeconds: number; timeoutSeconds: number };
  auth: "token" | "public";
};

export const services = pgTable(
  "services",
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
    spec: jsonb("spec").$type<ServiceSpecColumn>().notNull(),
    /** sha256 of the service token (shown once); null for public services created without one. */
    tokenHash: text("token_hash"),
    /** The autoscaler's current decision. */
    desiredReplicas: integer("desired_replicas").notNull().default(0),
    lastScaleUpAt: timestamp("last_scale_up_at", { withTimezone: true }),
    lastScaleDownAt: timestamp("last_scale_down_at", { withTimezone: true }),
    /** The last time the recommendation was at or above the current size (scale-down delay counts from it). */
    lastAtOrAboveAt: timestamp("last_at_or_above_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("services_org_idx").on(t.orgId),
    uniqueIndex("services_org_name").on(t.orgId, t.name).where(sql`deleted_at is null`),
  ],
);

/** One row per replica the autoscaler launched: the instance behind it and where its model server answers. */
export const serviceReplicas = pgTable(
  "service_replicas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    instanceId: uuid("instance_id")
      .notNull()
      .references(() => instances.id),
    ordinal: integer("ordinal").notNull(),
    pricingModel: pricingModel("pricing_model").notNull(),
    /** http://host:port of the replica's server once started; null before. */
    endpoint: text("endpoint"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** The first readiness probe that passed (the end of its cold start). */
    readyAt: timestamp("ready_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endReason: text("end_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("service_replicas_instance").on(t.instanceId),
    index("service_replicas_active_idx").on(t.serviceId).where(sql`ended_at is null`),
    index("service_replicas_org_idx").on(t.orgId),
  ],
);

/** The service's timeline: autoscaler decisions (with the numbers behind them), refusals, replica changes. */
export const serviceEvents = pgTable(
  "service_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: uuid("org_id").notNull(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** A key of Services.events (messages/<locale>/services.json). */
    code: text("code").notNull(),
    params: jsonb("params").$type<Record<string, string | number>>().notNull(),
    /** The English wording, for the API and the audit log. */
    text: text("text").notNull(),
  },
  (t) => [index("service_events_service_idx").on(t.serviceId, t.at)],
);

/**
 * The gateway's telemetry: one row per gateway process, service and second with traffic. Latency is a
 * histogram over LATENCY_BUCKETS_MS (lib/services/histogram.ts), so percentiles add up across rows and gateways.
 */
export const serviceTraffic = pgTable(
  "service_traffic",
  {
    orgId: uuid("org_id").notNull(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    gateway: text("gateway").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    requests: integer("requests").notNull(),
    status2xx: integer("status_2xx").notNull(),
    status4xx: integer("status_4xx").notNull(),
    status5xx: integer("status_5xx").notNull(),
    /** Requests answered 503 because no replica became ready in time (held while scaling from zero). */
    holdTimeouts: integer("hold_timeouts").notNull(),
    /** Requests that waited for a replica to become ready. */
    held: integer("held").notNull(),
    /** Mean in-flight requests over the second (in-flight × time / 1 s), the concurrency metric. */
    concurrency: real("concurrency").notNull(),
    /** Requests waiting in the gateway's queue at the end of the second. */
    queued: integer("queued").notNull(),
    latencyBuckets: integer("latency_buckets").array().notNull(),
  },
  (t) => [
    uniqueIndex("service_traffic_key").on(t.serviceId, t.gateway, t.at),
    index("service_traffic_org_idx").on(t.orgId, t.at),
  ],
);
