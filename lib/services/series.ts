import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { quantile } from "./histogram";

/** Points per chart: a 1 h range in 30 s steps, 30 days in 6 h steps. */
const POINTS = 120;

/** The autoscaler's decisions (decide.ts): each event's params carry `from` and `to` desired replicas. */
const DECISIONS = ["scaled_up", "panic_scale_up", "scale_from_zero", "scaled_down", "scaled_to_zero"];

export type ServiceSeriesPoint = {
  /** Start of the step (epoch ms). */
  t: number;
  /** Mean requests per second over the step (0 when none came). */
  rps: number;
  /** Latency percentiles of the step's requests (null without requests). */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Requests of the step answered 5xx / 4xx, and held requests that timed out (503, also counted in 5xx). */
  errors5xx: number;
  errors4xx: number;
  holdTimeouts: number;
  /** The autoscaler's desired replicas at the end of the step (its last decision by then). */
  desired: number;
  /** Replicas ready (serving) and launched (not ended) at the end of the step. */
  ready: number;
  launched: number;
  /** Replicas whose cold start ended (first ready probe) during the step. */
  coldStarts: number;
  /** The replicas' ledger cost falling in the step (hourly rows spread over their seconds), USD. */
  costUsd: number;
  /** costUsd per 1,000 of the step's requests; null without requests. */
  costPer1000Usd: number | null;
};

/**
 * A service's traffic, replicas and cost over a range, in steps, aggregated in SQL: per step the gateways'
 * requests, errors and summed latency histogram (percentiles interpolated as the figures are); at the step's
 * end the launched and ready replicas (from their created/ready/ended times) and the desired count (from the
 * autoscaler's decision events); its cold starts; and the replicas' ledger amounts pro rata over the step.
 */
export async function serviceSeries(
  exec: Executor,
  serviceId: string,
  rangeSeconds: number,
  now: Date,
): Promise<{ stepSeconds: number; points: ServiceSeriesPoint[] }> {
  const step = Math.max(1, Math.round(rangeSeconds / POINTS));
  const from = new Date(now.getTime() - step * POINTS * 1000);
  const stepOf = sql`floor(extract(epoch from st.at - ${from}::timestamptz) / ${step})::int`;
  const traffic = await exec.execute<{
    i: number;
    requests: number;
    s4: number;
    s5: number;
    timeouts: number;
  }>(sql`
    select ${stepOf} as i, sum(st.requests)::int as requests, sum(st.status_4xx)::int as s4,
      sum(st.status_5xx)::int as s5, sum(st.hold_timeouts)::int as timeouts
    from service_traffic st where st.service_id = ${serviceId} and st.at >= ${from} group by 1`);
  const buckets = await exec.execute<{ i: number; k: number; v: number }>(sql`
    select ${stepOf} as i, u.k::int as k, sum(u.v)::int as v
    from service_traffic st, unnest(st.latency_buckets) with ordinality as u(v, k)
    where st.service_id = ${serviceId} and st.at >= ${from} group by 1, 2`);
  const decisions = sql.join(
    DECISIONS.map((d) => sql`${d}`),
    sql`, `,
  );
  const perStep = await exec.execute<{
    i: number;
    ready: number;
    launched: number;
    cold: number;
    desired: number | null;
    cost: number;
  }>(sql`
    with g as (
      select i, ${from}::timestamptz + make_interval(secs => i * ${step}) as ts,
        ${from}::timestamptz + make_interval(secs => (i + 1) * ${step}) as te
      from generate_series(0, ${POINTS - 1}) as i)
    select g.i,
      (select count(*) from service_replicas r where r.service_id = ${serviceId} and r.created_at <= g.te
        and coalesce(r.ended_at, 'infinity') > g.te and r.ready_at <= g.te)::int as ready,
      (select count(*) from service_replicas r where r.service_id = ${serviceId} and r.created_at <= g.te
        and coalesce(r.ended_at, 'infinity') > g.te)::int as launched,
      (select count(*) from service_replicas r where r.service_id = ${serviceId}
        and r.ready_at > g.ts and r.ready_at <= g.te)::int as cold,
      coalesce(
        (select (e.params->>'to')::int from service_events e where e.service_id = ${serviceId}
          and e.code in (${decisions}) and e.at <= g.te order by e.at desc, e.id desc limit 1),
        (select (e.params->>'from')::int from service_events e where e.service_id = ${serviceId}
          and e.code in (${decisions}) and e.at > g.te order by e.at, e.id limit 1),
        (select s.desired_replicas from services s where s.id = ${serviceId})) as desired,
      (select coalesce(sum(u.amount * extract(epoch from least(u.period_end, g.te) - greatest(u.period_start, g.ts))
          / nullif(extract(epoch from u.period_end - u.period_start), 0)), 0)::float8
        from usage_records u
        where u.instance_id in (select instance_id from service_replicas where service_id = ${serviceId})
          and u.period_start < g.te and u.period_end > g.ts) as cost
    from g`);
  const traffics = new Map(traffic.rows.map((r) => [Number(r.i), r]));
  const hists = new Map<number, number[]>();
  for (const b of buckets.rows) {
    const h = hists.get(Number(b.i)) ?? [];
    h[Number(b.k) - 1] = Number(b.v);
    hists.set(Number(b.i), h);
  }
  const steps = new Map(perStep.rows.map((r) => [Number(r.i), r]));
  const points = Array.from({ length: POINTS }, (_, i): ServiceSeriesPoint => {
    const s = steps.get(i);
    const tr = traffics.get(i);
    const hist = Array.from(hists.get(i) ?? [], (v) => v ?? 0);
    const requests = Number(tr?.requests ?? 0);
    const cost = Number(s?.cost ?? 0);
    return {
      t: from.getTime() + i * step * 1000,
      rps: requests / step,
      p50Ms: quantile(hist, 0.5),
      p95Ms: quantile(hist, 0.95),
      p99Ms: quantile(hist, 0.99),
      errors5xx: Number(tr?.s5 ?? 0),
      errors4xx: Number(tr?.s4 ?? 0),
      holdTimeouts: Number(tr?.timeouts ?? 0),
      desired: Number(s?.desired ?? 0),
      ready: Number(s?.ready ?? 0),
      launched: Number(s?.launched ?? 0),
      coldStarts: Number(s?.cold ?? 0),
      costUsd: cost,
      costPer1000Usd: requests > 0 ? (cost / requests) * 1000 : null,
    };
  });
  return { stepSeconds: step, points };
}
