import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { serviceEvents } from "@/lib/db/schema";
import { quantile } from "./histogram";
import { loadOrgService } from "./manage";
import { serviceSeries } from "./series";

export const SERVICE_RANGES = {
  "1h": 3600,
  "6h": 6 * 3600,
  "24h": 86_400,
  "7d": 7 * 86_400,
  "30d": 30 * 86_400,
} as const;
export type ServiceRange = keyof typeof SERVICE_RANGES;

export type ServiceListItem = {
  id: string;
  name: string;
  region: string;
  instanceType: string;
  desired: number;
  ready: number;
  active: number;
  min: number;
  max: number;
  auth: "token" | "public";
};

/** The organization's live services with desired, active and ready replicas (viewers may read). */
export async function listServices(ctx: Ctx, orgSlug: string): Promise<ServiceListItem[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const res = await readDb(ctx).execute<{
    id: string;
    name: string;
    spec: {
      region: string;
      instanceType: string;
      minReplicas: number;
      maxReplicas: number;
      auth: "token" | "public";
    };
    desired: number;
    active: number;
    ready: number;
  }>(sql`
    select s.id, s.name, s.spec, s.desired_replicas as desired,
      (select count(*) from service_replicas r where r.service_id = s.id and r.ended_at is null)::int as active,
      (select count(*) from service_replicas r join instances i on i.id = r.instance_id
        where r.service_id = s.id and r.ended_at is null and r.ready_at is not null and i.state = 'running')::int as ready
    from services s where s.org_id = ${org.id} and s.deleted_at is null order by s.name`);
  return res.rows.map((r) => ({
    id: r.id,
    name: r.name,
    region: r.spec.region,
    instanceType: r.spec.instanceType,
    desired: r.desired,
    ready: r.ready,
    active: r.active,
    min: r.spec.minReplicas,
    max: r.spec.maxReplicas,
    auth: r.spec.auth,
  }));
}

export type ServiceStats = {
  requests: number;
  requestsPerSecond: number;
  errors5xx: number;
  errors4xx: number;
  holdTimeouts: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  coldStarts: number;
  /** Median cold start (replica started → first ready probe), seconds. */
  coldStartMedianS: number | null;
  costUsd: number;
  /** Null until the range has requests. */
  costPer1000Usd: number | null;
  replicaSeconds: number;
};

/**
 * A service's figures over a range, aggregated in SQL: traffic from the gateways' per-second rows (latency
 * percentiles from the summed histogram), cold starts from its replicas, cost from the metering ledger of its
 * replicas' instances (what the organization is billed).
 */
export async function serviceStats(
  ctx: Ctx,
  serviceId: string,
  orgId: string,
  range: ServiceRange,
  now: Date,
) {
  const exec = readDb(ctx);
  const secs = SERVICE_RANGES[range];
  const from = new Date(now.getTime() - secs * 1000);
  const t = await exec.execute<{
    requests: number;
    s4: number;
    s5: number;
    timeouts: number;
    hist: number[] | null;
  }>(sql`
    select coalesce(sum(requests), 0)::int as requests, coalesce(sum(status_4xx), 0)::int as s4,
      coalesce(sum(status_5xx), 0)::int as s5, coalesce(sum(hold_timeouts), 0)::int as timeouts,
      (select array_agg(v order by i) from (
         select u.i, sum(u.v)::int as v from service_traffic st2, unnest(st2.latency_buckets) with ordinality as u(v, i)
         where st2.service_id = ${serviceId} and st2.at > ${from} group by u.i) b) as hist
    from service_traffic where service_id = ${serviceId} and at > ${from}`);
  const r = await exec.execute<{ cold: number; median: number | null; replica_seconds: number }>(sql`
    select count(*) filter (where ready_at is not null and ready_at > ${from})::int as cold,
      percentile_cont(0.5) within group (order by extract(epoch from ready_at - started_at))
        filter (where ready_at is not null and ready_at > ${from}) as median,
      coalesce(sum(extract(epoch from least(coalesce(ended_at, ${now}), ${now}) - greatest(created_at, ${from})))
        filter (where coalesce(ended_at, ${now}) > ${from}), 0)::float8 as replica_seconds
    from service_replicas where service_id = ${serviceId}`);
  const c = await exec.execute<{ cost: number }>(sql`
    select coalesce(sum(u.amount), 0)::float8 as cost from usage_records u
    where u.org_id = ${orgId} and u.period_end > ${from}
      and u.instance_id in (select instance_id from service_replicas where service_id = ${serviceId})`);
  const tr = t.rows[0];
  const hist = (tr?.hist ?? []).map(Number);
  const requests = tr?.requests ?? 0;
  const cost = Number(c.rows[0]?.cost ?? 0);
  return {
    requests,
    requestsPerSecond: requests / secs,
    errors5xx: tr?.s5 ?? 0,
    errors4xx: tr?.s4 ?? 0,
    holdTimeouts: tr?.timeouts ?? 0,
    p50Ms: quantile(hist, 0.5),
    p95Ms: quantile(hist, 0.95),
    p99Ms: quantile(hist, 0.99),
    coldStarts: r.rows[0]?.cold ?? 0,
    coldStartMedianS: r.rows[0]?.median == null ? null : Number(r.rows[0].median),
    costUsd: cost,
    costPer1000Usd: requests > 0 ? (cost / requests) * 1000 : null,
    replicaSeconds: Number(r.rows[0]?.replica_seconds ?? 0),
  } satisfies ServiceStats;
}

/** A service's page: settings, replicas, figures over the range and its latest events. */
export async function getService(ctx: Ctx, orgSlug: string, idOrName: string, range: ServiceRange = "1h") {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const svc = await loadOrgService(exec, org.id, idOrName);
  const now = ctx.now?.() ?? new Date();
  const replicas = await exec.execute<{
    id: string;
    ordinal: number;
    state: string;
    pricing_model: string;
    ready_at: string | null;
    started_at: string | null;
    instance_id: string;
  }>(sql`
    select r.id, r.ordinal, i.state::text as state, r.pricing_model::text, r.ready_at, r.started_at, r.instance_id
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${svc.id} and r.ended_at is null order by r.ordinal`);
  const events = await exec
    .select({
      at: serviceEvents.at,
      code: serviceEvents.code,
      params: serviceEvents.params,
      text: serviceEvents.text,
    })
    .from(serviceEvents)
    .where(eq(serviceEvents.serviceId, svc.id))
    .orderBy(desc(serviceEvents.id))
    .limit(50);
  const stats = await serviceStats(ctx, svc.id, org.id, range, now);
  const { stepSeconds, points: series } = await serviceSeries(exec, svc.id, SERVICE_RANGES[range], now);
  const { tokenHash: _h, ...rest } = svc;
  return {
    service: rest,
    replicas: replicas.rows,
    ready: replicas.rows.filter((x) => x.ready_at && x.state === "running").length,
    events,
    stats,
    series,
    stepSeconds,
  };
}
export type ServiceDetail = Awaited<ReturnType<typeof getService>>;
