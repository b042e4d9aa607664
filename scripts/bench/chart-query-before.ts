/**
 * The chart statement as it was before issue 13's last round (lib/telemetry/series-sql.ts at ecbe8fb), kept for
 * the bench only: telemetry-chart times it beside today's in the same run.
 */
import { type SQL, sql } from "drizzle-orm";
import type { SourceLevel } from "@/lib/telemetry/ranges";

// lib/telemetry/sql-util.ts's two helpers as they were (a domain's inner modules are not imported by path).
const seconds = (n: number): SQL => sql`make_interval(secs => ${n})`;
const epochMs = (expr: SQL) => sql`(extract(epoch from ${expr}) * 1000)::float8`;

/** The columns a chart metric reads: in raw samples, and the level arrays' mean and peak. */
type ChartColumns = { raw: string; avg: string; max: string };

type ChartQueryInput = {
  instanceId: string;
  gpuCount: number;
  col: ChartColumns;
  /** The range's level (ranges.ts); the window's newest edge is read from finer sources. */
  level: SourceLevel;
  binSeconds: number;
  from: Date;
  to: Date;
};

/*
 * The chart's SQL: the range's level up to its newest bucket (which the rollup job may have written partly
 * filled), the 1-minute level from there to its own newest bucket, and raw samples after that (for the 10 s
 * and 1 min levels: the level to its newest bucket, then raw samples), so the newest edge is as fresh as the
 * raw samples and every part reads only what the coarser one does not hold. A level row
 * holds all GPUs of one bucket (metric_chart_levels), so the level part reads one row per bucket whatever the
 * GPU count; the tails hold a couple of minutes. An instance without a level yet reads the finer source for the
 * whole window. Level rows are weighted by their sample counts, so a partly filled bucket counts for what it
 * holds and the result is the same downsampling as over the raw samples. GROUPING SETS give the per-GPU bins,
 * the all-GPU average per bin and the window's total in one pass.
 */
export function chartQueryBefore(q: ChartQueryInput): SQL {
  const bin = seconds(q.binSeconds);
  const avg = sql.raw(`l.${q.col.avg}`);
  const max = sql.raw(`l.${q.col.max}`);
  const rawCol = sql.raw(`m.${q.col.raw}`);
  const newest = (level: number, after: SQL) => sql`coalesce((
    select l.bucket from metric_chart_levels l
    where l.instance_id = ${q.instanceId} and l.level_s = ${level} and l.bucket >= ${after} and l.bucket <= ${q.to}
    order by l.bucket desc limit 1), ${after})`;
  const levelPart = (level: number, lo: SQL, hi: SQL) => sql`
    select x.gpu, date_bin(${bin}, l.bucket, timestamptz 'epoch') as t, x.n, x.v * x.n as vw, x.vmax
    from metric_chart_levels l
    cross join lateral unnest(l.gpus, l.samples, ${avg}, ${max}) as x(gpu, n, v, vmax)
    where l.instance_id = ${q.instanceId} and l.level_s = ${level} and l.bucket >= ${lo} and l.bucket < ${hi}`;
  const fine = q.level > 60;
  const finest = fine ? 60 : q.level;
  // The finest level's newest bucket is read from raw samples while they exist; once the retention pruned
  // them (an instance stopped long ago), that bucket is whole and read from the level itself. Likewise a
  // coarse level's newest bucket is read from the finer sources only where they hold something after it (the
  // 1-minute level only reaches back as far as raw samples did: history back-fill, an upgrade).
  return sql`
    with edges as materialized (
      select e1, case when exists (
          select 1 from metric_samples m
          where m.instance_id = ${q.instanceId} and m.gpu_index = 0 and m.at >= e.e2 and m.at <= ${q.to}
        ) then e2 else e2 + ${seconds(finest)} end as e2
      from (select e1, ${fine ? newest(60, sql`e1`) : sql`e1`} as e2
        from (${
          fine
            ? sql`select case when exists (
                select 1 from metric_chart_levels l
                where l.instance_id = ${q.instanceId} and l.level_s = 60 and l.bucket >= e0 and l.bucket <= ${q.to}
              ) or exists (
                select 1 from metric_samples m
                where m.instance_id = ${q.instanceId} and m.gpu_index = 0 and m.at >= e0 and m.at <= ${q.to}
              ) then e0 else e0 + ${seconds(q.level)} end as e1
              from (select ${newest(q.level, sql`${q.from}::timestamptz`)} as e0) e0`
            : sql`select ${newest(q.level, sql`${q.from}::timestamptz`)} as e1`
        }) e1) e
    ),
    s as (
      ${levelPart(q.level, sql`${q.from}`, sql`(select ${fine ? sql`e1` : sql`e2`} from edges)`)}
      ${fine ? sql`union all ${levelPart(60, sql`(select e1 from edges)`, sql`(select e2 from edges)`)}` : sql``}
      union all
      select g.gpu_index, date_bin(${bin}, m.at, timestamptz 'epoch'), 1, m.v, m.v
      from generate_series(0, ${q.gpuCount - 1}) as g(gpu_index)
      cross join lateral (
        select m.at, ${rawCol} as v from metric_samples m
        where m.instance_id = ${q.instanceId} and m.gpu_index = g.gpu_index
          and m.at >= (select e2 from edges) and m.at <= ${q.to}
      ) m
    )
    select grouping(s.t) as is_total, grouping(s.gpu) as is_avg, s.gpu as gpu_index, ${epochMs(sql`s.t`)} as t,
      (sum(s.vw) / sum(s.n))::float8 as v, max(s.vmax)::float8 as peak
    from s group by grouping sets ((s.gpu, s.t), (s.t), ())`;
}
