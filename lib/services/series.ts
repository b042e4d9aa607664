import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { quantile } from "./histogram";

/** Points per chart: a 1 h range in 30 s steps, 30 days in 6 h steps. */
const POINTS = 120;

export type ServiceSeriesPoint = {
  /** Start of the step (epoch ms). */
  t: number;
  /** Mean requests per second over the step (0 when none came). */
  rps: number;
  /** p95 latency of the step's requests (null without requests). */
  p95Ms: number | null;
  /** Replicas ready (serving) and launched (not ended) at the end of the step. */
  ready: number;
  launched: number;
};

/**
 * A service's traffic and replicas over a range, in steps, aggregated in SQL: per step the gateways' requests
 * and the summed latency histogram (its p95 interpolated as the figures do), and how many replicas were
 * launched and ready at the step's end, from the replicas' created/ready/ended times.
 */
export async function serviceSeries(
  exec: Executor,
  serviceId: string,
  rangeSeconds: number,
  now: Date,
): Promise<ServiceSeriesPoint[]> {
  const step = Math.max(1, Math.round(rangeSeconds / POINTS));
  const from = new Date(now.getTime() - step * POINTS * 1000);
  const stepOf = sql`floor(extract(epoch from st.at - ${from}::timestamptz) / ${step})::int`;
  const traffic = await exec.execute<{ i: number; requests: number }>(sql`
    select ${stepOf} as i, sum(st.requests)::int as requests from service_traffic st
    where st.service_id = ${serviceId} and st.at >= ${from} group by 1`);
  const buckets = await exec.execute<{ i: number; k: number; v: number }>(sql`
    select ${stepOf} as i, u.k::int as k, sum(u.v)::int as v
    from service_traffic st, unnest(st.latency_buckets) with ordinality as u(v, k)
    where st.service_id = ${serviceId} and st.at >= ${from} group by 1, 2`);
  const replicas = await exec.execute<{ i: number; ready: number; launched: number }>(sql`
    select g.i,
      count(r.id) filter (where r.ready_at <= g.te)::int as ready,
      count(r.id)::int as launched
    from (select i, ${from}::timestamptz + make_interval(secs => (i + 1) * ${step}) as te
          from generate_series(0, ${POINTS - 1}) as i) g
    left join service_replicas r on r.service_id = ${serviceId}
      and r.created_at <= g.te and coalesce(r.ended_at, 'infinity') > g.te
    group by g.i`);
  const requests = new Map(traffic.rows.map((r) => [Number(r.i), Number(r.requests)]));
  const hists = new Map<number, number[]>();
  for (const b of buckets.rows) {
    const h = hists.get(Number(b.i)) ?? [];
    h[Number(b.k) - 1] = Number(b.v);
    hists.set(Number(b.i), h);
  }
  const counts = new Map(replicas.rows.map((r) => [Number(r.i), r]));
  return Array.from({ length: POINTS }, (_, i) => {
    const rc = counts.get(i);
    const hist = hists.get(i);
    return {
      t: from.getTime() + i * step * 1000,
      rps: (requests.get(i) ?? 0) / step,
      p95Ms: hist
        ? quantile(
            Array.from(hist, (v) => v ?? 0),
            0.95,
          )
        : null,
      ready: rc?.ready ?? 0,
      launched: rc?.launched ?? 0,
    };
  });
}
