import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { seconds } from "./sql-util";

export const ROLLUP_BUCKET_MS = 5 * 60_000;
/** How far back a run may reach: after a long rollup outage, older buckets are left as they are. */
export const ROLLUP_LOOKBACK_MS = 24 * 3_600_000;
/**
 * Each (instance, GPU) is re-aggregated from this long before its newest rollup bucket: samples reach the
 * table up to MAX_CATCH_UP_MS (15 min) late, so the last few closed buckets may still grow.
 */
export const ROLLUP_OVERLAP_MS = 20 * 60_000;

/** A bucket is recomputed whole; the same sample count means the same aggregate (samples are immutable). */
const RECOMPUTE = sql`do update set
  samples = excluded.samples,
  utilization_avg = excluded.utilization_avg,
  utilization_max = excluded.utilization_max,
  memory_used_avg = excluded.memory_used_avg,
  power_avg = excluded.power_avg,
  temperature_avg = excluded.temperature_avg
  where r.samples <> excluded.samples`;

/**
 * Aggregates closed 5-minute buckets of raw samples into metric_rollups_5m. Idempotent: INSERT … SELECT …
 * ON CONFLICT DO UPDATE recomputes a bucket from its samples, and skips the write when the sample count is
 * unchanged (samples are immutable once stored, so the same count means the same aggregate). Per (instance,
 * GPU) it starts at its newest bucket minus the overlap (a watermark read from the rollups' own key), so a run
 * reads about twenty minutes of samples per GPU through the primary-key range, and a run after an outage
 * catches up as far as `lookbackMs`.
 */
export async function rollupMetrics(
  ctx: Ctx,
  opts: { now?: Date; lookbackMs?: number; overlapMs?: number } = {},
): Promise<{ buckets: number; levelBuckets: number }> {
  const now = opts.now ?? nowOf(ctx);
  const end = Math.floor(now.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  const start =
    end - Math.ceil((opts.lookbackMs ?? ROLLUP_LOOKBACK_MS) / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  const from = new Date(start);
  const to = new Date(end);
  const overlap = seconds((opts.overlapMs ?? ROLLUP_OVERLAP_MS) / 1000);
  const exec = readDb(ctx);
  const res = await exec.execute(sql`
    with targets as (
      select i.id, g.gpu_index::int2 as gpu_index,
        greatest(${from}::timestamptz, (
          select r.bucket - ${overlap} from metric_rollups_5m r
          where r.instance_id = i.id and r.gpu_index = g.gpu_index order by r.bucket desc limit 1
        )) as since
      from instances i cross join generate_series(0, i.gpu_count - 1) as g(gpu_index)
      where i.started_at is not null
        and (i.state in ('running', 'stopping', 'preempting') or i.updated_at >= ${from})
    )
    insert into metric_rollups_5m as r
      (instance_id, gpu_index, bucket, org_id, samples, utilization_avg, utilization_max, memory_used_avg,
       power_avg, temperature_avg)
    select s.instance_id, s.gpu_index, date_bin('5 minutes', s.at, timestamptz 'epoch') as bucket, s.org_id,
      count(*)::int, avg(s.utilization_pct), max(s.utilization_pct), avg(s.memory_used_gib), avg(s.power_watts),
      avg(s.temperature_c)
    from targets t
    cross join lateral (
      select * from metric_samples m
      where m.instance_id = t.id and m.gpu_index = t.gpu_index and m.at >= t.since and m.at < ${to}
    ) s
    group by s.instance_id, s.gpu_index, bucket, s.org_id
    on conflict (instance_id, gpu_index, bucket) ${RECOMPUTE}`);
  // The 1-minute level follows the raw samples to the last whole minute (the 6 h and 24 h charts read it).
  const rawTo = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const levels = await rollupLevels(ctx, { from, to, rawTo, overlapMs: opts.overlapMs });
  return { buckets: res.rowCount ?? 0, levelBuckets: levels.buckets };
}

/**
 * The chart levels: 10 s and 60 s from raw samples, 20 min and 1 h from the 5-minute rollups (which the raw-sample
 * retention leaves alone, as do these two). Chart ranges pick one in ranges.ts. One row per instance and bucket
 * with the GPUs' aggregates in arrays (metric_chart_levels), so a chart's rows do not grow with the GPU count.
 */
export const ROLLUP_LEVELS = [
  { seconds: 10, source: "raw" },
  { seconds: 60, source: "raw" },
  { seconds: 1200, source: "5m" },
  { seconds: 3600, source: "5m" },
] as const;
export type RollupLevelSeconds = (typeof ROLLUP_LEVELS)[number]["seconds"];

/**
 * The level rows' arrays, one element per GPU in gpu_index order, and the all-GPU figures computed from them;
 * samples unchanged means the bucket is.
 */
const LEVEL_RECOMPUTE = sql`do update set
  gpus = excluded.gpus,
  samples = excluded.samples,
  utilization_avg = excluded.utilization_avg,
  utilization_max = excluded.utilization_max,
  memory_used_avg = excluded.memory_used_avg,
  power_avg = excluded.power_avg,
  temperature_avg = excluded.temperature_avg,
  samples_total = excluded.samples_total,
  utilization_wsum = excluded.utilization_wsum,
  utilization_peak = excluded.utilization_peak,
  memory_used_wsum = excluded.memory_used_wsum,
  memory_used_peak = excluded.memory_used_peak,
  power_wsum = excluded.power_wsum,
  power_peak = excluded.power_peak,
  temperature_wsum = excluded.temperature_wsum,
  temperature_peak = excluded.temperature_peak
  where r.gpus <> excluded.gpus or r.samples <> excluded.samples`;

/**
 * A metric's all-GPU weighted sum over the stored reals (Σ avg[k]::float8 × samples[k] in array order: the
 * same float8 operations a chart made on the arrays, so it draws the same mean) and its peak.
 */
const totals = (avg: string, max: string) =>
  sql.raw(`sum(p.${avg}::real::float8 * p.samples order by p.gpu_index), max(p.${max}::real)`);

/**
 * Aggregates every level of ROLLUP_LEVELS for [from, to), idempotent like rollupMetrics: per (instance, level)
 * it restarts at its newest bucket minus the overlap and one level (aligned to the level, so a bucket is always
 * recomputed whole), and skips the write where the GPUs' sample counts are unchanged. The open bucket at `to` is
 * written partly filled and completed by the next run (charts read past a level's newest bucket from a finer
 * source: series.ts). The raw-sampled levels read up to `rawTo` (default `to`). `instanceIds` limits a run (the
 * history back-fill); otherwise the instances the 5-minute job targets.
 */
export async function rollupLevels(
  ctx: Ctx,
  opts: { from: Date; to: Date; rawTo?: Date; overlapMs?: number; instanceIds?: string[] },
): Promise<{ buckets: number }> {
  const exec = readDb(ctx);
  const scope = opts.instanceIds
    ? sql`i.id = any(${sql.param(opts.instanceIds)}::uuid[])`
    : sql`(i.state in ('running', 'stopping', 'preempting') or i.updated_at >= ${opts.from})`;
  let buckets = 0;
  for (const level of ROLLUP_LEVELS) {
    const width = seconds(level.seconds);
    const overlap = seconds((opts.overlapMs ?? ROLLUP_OVERLAP_MS) / 1000 + level.seconds);
    // An instance without this level yet (new, or history from before the levels existed) starts from its
    // 5-minute rollups' whole chart window (30 days) once; raw samples only reach as far as `from`.
    const firstFrom =
      level.source === "raw"
        ? opts.from
        : new Date(Math.min(opts.from.getTime(), opts.to.getTime() - 30 * 86_400_000));
    const source =
      level.source === "raw"
        ? sql`
        select m.gpu_index, date_bin(${width}, m.at, timestamptz 'epoch') as bucket,
          count(*)::int as samples, avg(m.utilization_pct) as ua, max(m.utilization_pct) as um,
          avg(m.memory_used_gib) as ma, avg(m.power_watts) as pa, avg(m.temperature_c) as ta
        from metric_samples m
        where m.instance_id = t.id and m.gpu_index = g.gpu_index and m.at >= t.since
          and m.at < ${opts.rawTo ?? opts.to}
        group by 1, 2`
        : sql`
        select m.gpu_index, date_bin(${width}, m.bucket, timestamptz 'epoch') as bucket,
          sum(m.samples)::int as samples, sum(m.utilization_avg * m.samples) / sum(m.samples) as ua,
          max(m.utilization_max) as um, sum(m.memory_used_avg * m.samples) / sum(m.samples) as ma,
          sum(m.power_avg * m.samples) / sum(m.samples) as pa,
          sum(m.temperature_avg * m.samples) / sum(m.samples) as ta
        from metric_rollups_5m m
        where m.instance_id = t.id and m.gpu_index = g.gpu_index and m.bucket >= t.since
          and m.bucket < ${opts.to}
        group by 1, 2`;
    const res = await exec.execute(sql`
      with targets as (
        select i.id, i.org_id, i.gpu_count,
          date_bin(${width}, coalesce((
            select greatest(${opts.from}::timestamptz, r.bucket - ${overlap}) from metric_chart_levels r
            where r.instance_id = i.id and r.level_s = ${level.seconds}
            order by r.bucket desc limit 1
          ), ${firstFrom}::timestamptz), timestamptz 'epoch') as since
        from instances i
        where i.started_at is not null and ${scope}
      ),
      per_gpu as (
        select t.id, t.org_id, s.*
        from targets t
        cross join generate_series(0, t.gpu_count - 1) as g(gpu_index)
        cross join lateral (${source}) s
      )
      insert into metric_chart_levels as r
        (instance_id, level_s, bucket, org_id, gpus, samples, utilization_avg, utilization_max, memory_used_avg,
         power_avg, temperature_avg, samples_total, utilization_wsum, utilization_peak, memory_used_wsum,
         memory_used_peak, power_wsum, power_peak, temperature_wsum, temperature_peak)
      select p.id, ${level.seconds}, p.bucket, p.org_id,
        array_agg(p.gpu_index::int2 order by p.gpu_index), array_agg(p.samples order by p.gpu_index),
        array_agg(p.ua::real order by p.gpu_index), array_agg(p.um::real order by p.gpu_index),
        array_agg(p.ma::real order by p.gpu_index), array_agg(p.pa::real order by p.gpu_index),
        array_agg(p.ta::real order by p.gpu_index), sum(p.samples)::int, ${totals("ua", "um")},
        ${totals("ma", "ma")}, ${totals("pa", "pa")}, ${totals("ta", "ta")}
      from per_gpu p
      group by p.id, p.org_id, p.bucket
      on conflict (instance_id, level_s, bucket) ${LEVEL_RECOMPUTE}`);
    buckets += res.rowCount ?? 0;
  }
  return { buckets };
}
