import { z } from "zod";
import type { Service } from "./types";

const iso = z.string().meta({ format: "date-time" });

/**
 * A service's settings as the API returns them (no token hash, no environment values); its ETag is computed
 * from this, so the autoscaler changing the replica count does not make a reader's If-Match stale.
 */
export const serviceViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    projectId: z.uuid(),
    image: z.string(),
    command: z.string().nullable(),
    args: z.array(z.string()).nullable(),
    port: z.int(),
    instanceType: z.string(),
    region: z.string(),
    pricingModel: z.enum(["on_demand", "spot"]),
    onDemandFallback: z.boolean(),
    minReplicas: z.int(),
    maxReplicas: z.int(),
    metric: z.enum(["rps", "concurrency"]),
    target: z.number(),
    scaleUpDelaySeconds: z.int(),
    scaleDownDelaySeconds: z.int(),
    scaleToZeroGraceSeconds: z.int(),
    readiness: z.object({ path: z.string(), intervalSeconds: z.int(), timeoutSeconds: z.int() }),
    auth: z.enum(["token", "public"]),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Service" });
export type ServiceView = z.output<typeof serviceViewSchema>;

export function serviceView(s: Omit<Service, "tokenHash">): ServiceView {
  const p = s.spec;
  return {
    id: s.id,
    name: s.name,
    projectId: s.projectId,
    image: p.image,
    command: p.command,
    args: p.args,
    port: p.port,
    instanceType: p.instanceType,
    region: p.region,
    pricingModel: p.pricingModel,
    onDemandFallback: p.onDemandFallback,
    minReplicas: p.minReplicas,
    maxReplicas: p.maxReplicas,
    metric: p.metric,
    target: p.target,
    scaleUpDelaySeconds: p.scaleUpDelaySeconds,
    scaleDownDelaySeconds: p.scaleDownDelaySeconds,
    scaleToZeroGraceSeconds: p.scaleToZeroGraceSeconds,
    readiness: p.readiness,
    auth: p.auth,
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}

/** The service with the autoscaler's decision and what is ready now (GET of one service). */
export const serviceDetailViewSchema = serviceViewSchema
  .extend({ desiredReplicas: z.int(), readyReplicas: z.int() })
  .meta({ id: "ServiceDetail" });

/** Created: the settings and, for a token-authenticated service, its token (only in this answer). */
export const serviceCreatedViewSchema = serviceViewSchema
  .extend({ token: z.string().nullable().meta({ description: "Shown once; null for a public service" }) })
  .meta({ id: "ServiceCreated" });

export const serviceListItemViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    region: z.string(),
    instanceType: z.string(),
    desired: z.int(),
    ready: z.int(),
    active: z.int(),
    min: z.int(),
    max: z.int(),
    auth: z.enum(["token", "public"]),
  })
  .meta({ id: "ServiceListItem" });

const ms = z.number().nullable().meta({ description: "Milliseconds; null without requests in the step" });

export const serviceSeriesPointSchema = z
  .object({
    t: z.int().meta({ description: "Start of the step, epoch milliseconds" }),
    rps: z.number().meta({ description: "Mean requests per second over the step" }),
    p50Ms: ms,
    p95Ms: ms,
    p99Ms: ms,
    errors5xx: z.int(),
    errors4xx: z.int(),
    holdTimeouts: z.int().meta({ description: "Held requests answered 503 (also in errors5xx)" }),
    desired: z.int().meta({ description: "The autoscaler's desired replicas at the end of the step" }),
    ready: z.int().meta({ description: "Replicas ready at the end of the step" }),
    launched: z.int().meta({ description: "Replicas launched and not ended at the end of the step" }),
    coldStarts: z.int().meta({ description: "Replicas that became ready during the step" }),
    costUsd: z.number().meta({ description: "The replicas' ledger cost in the step, USD" }),
    costPer1000Usd: z.number().nullable().meta({ description: "Null without requests in the step" }),
  })
  .meta({ id: "ServiceSeriesPoint" });

export const serviceStatsViewSchema = z
  .object({
    range: z.enum(["1h", "6h", "24h", "7d", "30d"]),
    requests: z.int(),
    requestsPerSecond: z.number(),
    errors5xx: z.int(),
    errors4xx: z.int(),
    holdTimeouts: z.int(),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    p99Ms: z.number().nullable(),
    coldStarts: z.int(),
    coldStartMedianS: z.number().nullable(),
    costUsd: z.number(),
    costPer1000Usd: z.number().nullable(),
    replicaSeconds: z.number(),
    stepSeconds: z.int().meta({ description: "Length of each series step: the range over 120 steps" }),
    series: z
      .array(serviceSeriesPointSchema)
      .meta({ description: "The range in 120 steps, oldest first (what the service page draws)" }),
  })
  .meta({ id: "ServiceStats" });

export const serviceEventViewSchema = z
  .object({
    at: iso,
    code: z.string(),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
    text: z.string(),
  })
  .meta({ id: "ServiceEvent" });
