import { type SQL, sql } from "drizzle-orm";
import type { SourceLevel } from "./ranges";
import { seconds } from "./sql-util";

/** The columns a chart metric reads: in raw samples, and the level arrays' mean and peak. */
export type ChartColumns = { raw: string; avg: string; max: string };

export type ChartQueryInput = {
  instanceId: string;
  /** The instance's GPU count, or absent: read from the instance row in the same statement. */
  gpuCount?: number;
  /** The instance's organization: every part of the statement reads only its rows (tenant scoping). */
  orgId?: string;
  col: ChartColumns;
  /** The range's level (ranges.ts); the window's newest edge is read from finer sources. */
  level: SourceLevel;
  binSeconds: number;
  from: Date;
  to: Date;
};

/**
 * The chart's SQL: the range's level up to its newest bucket (which the rollup job may have written partly
 * filled), the 1-minute level from there to its own newest bucket, and raw samples after that (for the 10 s
 * and 1 min levels: the level to its newest bucket, then raw samples), so the newest edge is as fresh as the
 * raw samples and every part reads only what the coarser one does not hold. A level row
 * holds all GPUs of one bucket (metric_chart_levels), so the level part reads one row per bucket whatever the
 * GPU count; the tails hold a couple of minutes. An instance without a level yet reads the finer source for the
 * whole window. Level rows are weighted by their sample counts, so a partly filled bucket counts for what it
 * holds and the result is the same downsampling as over the raw samples. GROUPING SETS give the per-GPU bins,
 * the all-GPU average per bin and the window's total in one pass; the statement returns one row per series
 * (each GPU, the average with gpu_index null, the total with is_total 1) with its bins' starts (epoch seconds)
 * and values as two json arrays in the same order: a row per bin was ~4,500 rows for 8 GPUs over 7 days, and
 * writing and parsing them cost more than computing them (issue 13).
 */
export function chartQuery(q: ChartQueryInput): SQL {
  const bin = seconds(q.binSeconds);
  const avg = sql.raw(`l.${q.col.avg}`);
  // Belt and braces for a caller that reads the instance beside the chart: no row of another organization.
  const orgFilter = (t: string) => (q.orgId ? sql` and ${sql.raw(t)}.org_id = ${q.orgId}` : sql``);
  const max = sql.raw(`l.${q.col.max}`);
  const rawCol = sql.raw(`m.${q.col.raw}`);
  // One unnest per row (the GPUs, with their position) and the other arrays by subscript: a four-array unnest
  // is four function scans per row, about six times the cost of this one (issue 13).
  const levelPart = (level: number, lo: SQL, hi: SQL) => sql`
    select x.gpu, date_bin(${bin}, l.bucket, timestamptz 'epoch') as t, l.samples[x.i] as n,
      ${avg}[x.i]::float8 * l.samples[x.i] as vw, ${max}[x.i] as vmax
    from metric_chart_levels l
    cross join lateral unnest(l.gpus) with ordinality as x(gpu, i)
    where l.instance_id = ${q.instanceId} and l.level_s = ${level} and l.bucket >= ${lo} and l.bucket < ${hi}${orgFilter("l")}`;
  // The GPUs' raw tails in one index scan, a descent per GPU (PK instance, gpu, at).
  const gpuList =
    typeof q.gpuCount === "number"
      ? sql`${sql.param(Array.from({ length: q.gpuCount }, (_, g) => g))}::int2[]`
      : sql`array(select generate_series(0, i.gpu_count - 1)::int2 from instances i
          where i.id = ${q.instanceId}${orgFilter("i")})`;
  const fine = q.level > 60;
  const finest = fine ? 60 : q.level;
  // The edges from three probes, each one descent of a primary key: the range level's newest bucket in the
  // window, the 1-minute level's and GPU 0's newest raw sample up to `to`. The finest level's newest bucket is
  // read from raw samples while they exist; once the retention pruned them (an instance stopped long ago), that
  // bucket is whole and read from the level itself. Likewise a coarse level's newest bucket is read from the
  // finer sources only where they hold something after it (the 1-minute level only reaches back as far as raw
  // samples did: history back-fill, an upgrade). "Exists after x" is "newest ≥ x"; each step sits behind
  // OFFSET 0 so the planner does not inline its expression into the next (issue 13: inlined, the probes were
  // copied into 46 subplans and planning took longer than running).
  const levelNewest = sql`(select l.bucket from metric_chart_levels l
      where l.instance_id = ${q.instanceId} and l.level_s = ${q.level} and l.bucket >= ${q.from}
        and l.bucket <= ${q.to} order by l.bucket desc limit 1)`;
  const rawNewest = sql`(select m.at from metric_samples m
      where m.instance_id = ${q.instanceId} and m.gpu_index = 0 and m.at <= ${q.to} order by m.at desc limit 1)`;
  const minuteNewest = sql`(select l.bucket from metric_chart_levels l
      where l.instance_id = ${q.instanceId} and l.level_s = 60 and l.bucket <= ${q.to}
      order by l.bucket desc limit 1)`;
  const edges = fine
    ? sql`select a.e1, case when p.mr >= b.e2 then b.e2 else b.e2 + ${seconds(finest)} end as e2
      from (select coalesce(${levelNewest}, ${q.from}::timestamptz) as e0, ${minuteNewest} as m1, ${rawNewest} as mr
        offset 0) p
      cross join lateral (select case when p.m1 >= p.e0 or p.mr >= p.e0 then p.e0
        else p.e0 + ${seconds(q.level)} end as e1 offset 0) a
      cross join lateral (select greatest(p.m1, a.e1) as e2 offset 0) b`
    : sql`select p.e1, case when p.mr >= p.e1 then p.e1 else p.e1 + ${seconds(finest)} end as e2
      from (select coalesce(${levelNewest}, ${q.from}::timestamptz) as e1, ${rawNewest} as mr offset 0) p`;
  return sql`
    with edges as materialized (${edges}),
    s as (
      ${levelPart(q.level, sql`${q.from}`, sql`(select ${fine ? sql`e1` : sql`e2`} from edges)`)}
      ${fine ? sql`union all ${levelPart(60, sql`(select e1 from edges)`, sql`(select e2 from edges)`)}` : sql``}
      union all
      select m.gpu_index, date_bin(${bin}, m.at, timestamptz 'epoch'), 1, m.v::float8, m.v
      from (
        select m.gpu_index, m.at, ${rawCol} as v from metric_samples m
        where m.instance_id = ${q.instanceId} and m.gpu_index = any(${gpuList})
          and m.at >= (select e2 from edges) and m.at <= ${q.to}${orgFilter("m")}
      ) m
    ),
    b as (
      select grouping(s.t) as is_total, s.gpu, s.t, sum(s.vw) / sum(s.n) as v, max(s.vmax) as peak
      from s group by grouping sets ((s.gpu, s.t), (s.t), ())
    )
    -- Both json_agg see the group's rows in the same order (one aggregate node), so t[j] and v[j] pair up.
    select b.is_total, b.gpu as gpu_index, json_agg(extract(epoch from b.t)::int8) as t, json_agg(b.v) as v,
      max(b.peak)::float8 as peak
    from b group by b.is_total, b.gpu`;
}

/** One node of EXPLAIN (ANALYZE, FORMAT JSON) output, as far as rowsRead needs it. */
type PlanNode = {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
};

/** The table rows a plan read (scans of metric_chart_levels and metric_samples, every loop), for tests/bench. */
export function rowsRead(plan: PlanNode): number {
  const own =
    plan["Relation Name"] === "metric_chart_levels" || plan["Relation Name"] === "metric_samples"
      ? (plan["Actual Rows"] ?? 0) * (plan["Actual Loops"] ?? 1)
      : 0;
  return own + (plan.Plans ?? []).reduce((a, p) => a + rowsRead(p), 0);
}
