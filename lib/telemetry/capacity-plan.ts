import "server-only";
import { sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { linearTrend } from "./capacity-forecast";
import { waitsCte } from "./queue";

const DAY_MS = 86_400_000;
export const PLAN_DAYS = 30;

export type CapacityPlanRow = {
  regionCode: string;
  gpuModelId: string;
  gpuModelName: string;
  /** GPUs of active nodes (draining and down ones take no new work). */
  capacityGpus: number;
  /** Sum of the organizations' nominal quotas here: what was promised. */
  committedGpus: number;
  /** GPUs held now (MIG slices as their fraction of a GPU). */
  usedGpus: number;
  /** GPUs the queued instances wait for. */
  queuedGpus: number;
  /** 95th percentile of the queue waits that ended in the last 30 days (seconds); null when none did. */
  waitP95Seconds: number | null;
  /** Peak GPUs in use on each of the last 30 UTC days, oldest first (today last). */
  dailyPeaks: number[];
  slopePerDay: number;
  /** Days until the trend of daily peaks reaches capacity (0: already there; null: not expected). */
  daysToFull: number | null;
  /** The UTC date the trend reaches capacity, or null. */
  fullOn: Date | null;
};

type Pool = {
  region: string;
  model: string;
  model_name: string;
  capacity: number;
  committed: number;
  used: number;
  queued: number;
};
type Peak = { region: string; model: string; day: string; peak: number; last: number };

/**
 * Capacity planning per region × GPU model, for operators: capacity, committed quota, use and queue demand
 * now, the queue-time p95 of the last 30 days (the queue charts' definition of a wait), and a forecast of when
 * capacity runs out from the trend of the daily peak in use over the last 30 days.
 * The peak is exact (a running sum over allocation starts and ends, in SQL), not sampled.
 */
export async function getCapacityPlan(ctx: Ctx): Promise<CapacityPlanRow[]> {
  requireOperator(ctx);
  const now = nowOf(ctx);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (PLAN_DAYS - 1) * DAY_MS);
  const exec = readDb(ctx);
  const pools = await exec.execute<Pool>(sql`
    with p as (
      select region_code, gpu_model_id from nodes where status <> 'down'
      union select region_code, gpu_model_id from quotas where max_gpus > 0
      union select region_code, gpu_model_id from instances where state = 'queued'
    )
    select p.region_code as region, p.gpu_model_id as model, m.name as model_name,
      (select coalesce(sum(n.gpu_count), 0)::int from nodes n
        where n.region_code = p.region_code and n.gpu_model_id = p.gpu_model_id and n.status = 'active') as capacity,
      (select coalesce(sum(q.max_gpus), 0)::int from quotas q
        where q.region_code = p.region_code and q.gpu_model_id = p.gpu_model_id) as committed,
      (select coalesce(sum(a.slices), 0) / 7.0 from gpu_allocations a join nodes n on n.id = a.node_id
        where a.released_at is null and n.region_code = p.region_code and n.gpu_model_id = p.gpu_model_id)::float8
        as used,
      (select coalesce(sum(i.gpu_count * i.slices_per_gpu), 0) / 7.0 from instances i
        where i.state = 'queued' and i.region_code = p.region_code and i.gpu_model_id = p.gpu_model_id)::float8
        as queued
    from p join gpu_models m on m.id = p.gpu_model_id join regions r on r.code = p.region_code and r.active
    order by p.region_code, m.name`);
  // Concurrency at every allocation start and end (releases first at the same instant), then each day's
  // highest level and the level it ends on (carried into days without any event).
  const peaks = await exec.execute<Peak>(sql`
    with ev as (
      select n.region_code, n.gpu_model_id, a.allocated_at as t, a.slices as d
      from gpu_allocations a join nodes n on n.id = a.node_id
      where coalesce(a.released_at, 'infinity') > ${from} and a.allocated_at <= ${now}
      union all
      select n.region_code, n.gpu_model_id, a.released_at, -a.slices
      from gpu_allocations a join nodes n on n.id = a.node_id
      where a.released_at > ${from} and a.released_at <= ${now} and a.allocated_at <= ${now}
    ),
    run as (
      select region_code, gpu_model_id, t, d,
        sum(d) over (partition by region_code, gpu_model_id order by t, d rows unbounded preceding) as level
      from ev
    )
    select region_code as region, gpu_model_id as model,
      to_char(greatest(t, ${from}::timestamptz) at time zone 'UTC', 'YYYY-MM-DD') as day,
      (max(level) / 7.0)::float8 as peak,
      ((array_agg(level order by t desc, d desc))[1] / 7.0)::float8 as last
    from run group by 1, 2, 3`);
  const waits = await exec.execute<{ region: string; model: string; p95: number }>(sql`
    with ${waitsCte(from, now, sql`true`)}
    select region_code as region, gpu_model_id as model,
      (percentile_cont(0.95) within group (order by wait_s))::float8 as p95
    from waits group by 1, 2`);
  const p95 = new Map(waits.rows.map((w) => [`${w.region}/${w.model}`, Math.round(Number(w.p95))]));
  const byPool = new Map<string, Map<number, { peak: number; last: number }>>();
  for (const r of peaks.rows) {
    const k = `${r.region}/${r.model}`;
    const days = byPool.get(k) ?? new Map();
    days.set(Date.parse(`${r.day}T00:00:00Z`), { peak: Number(r.peak), last: Number(r.last) });
    byPool.set(k, days);
  }
  return pools.rows.map((p) => {
    const days = byPool.get(`${p.region}/${p.model}`) ?? new Map();
    const dailyPeaks: number[] = [];
    let carry = 0;
    for (let i = 0; i < PLAN_DAYS; i++) {
      const d = days.get(from.getTime() + i * DAY_MS);
      // A day without an allocation starting or ending held the level the previous day ended on.
      dailyPeaks.push(round(d ? Math.max(d.peak, carry) : carry));
      if (d) carry = d.last;
    }
    const capacity = Number(p.capacity);
    const trend = linearTrend(dailyPeaks, capacity);
    return {
      regionCode: p.region,
      gpuModelId: p.model,
      gpuModelName: p.model_name,
      capacityGpus: capacity,
      committedGpus: Number(p.committed),
      usedGpus: round(Number(p.used)),
      queuedGpus: round(Number(p.queued)),
      waitP95Seconds: p95.get(`${p.region}/${p.model}`) ?? null,
      dailyPeaks,
      slopePerDay: trend.slopePerDay,
      daysToFull: trend.daysToFull,
      fullOn: trend.daysToFull === null ? null : new Date(today + trend.daysToFull * DAY_MS),
    };
  });
}

const round = (v: number) => Math.round(v * 100) / 100;
