import { type SQL, sql } from "drizzle-orm";
import type { OrgAccessRow } from "@/lib/access";
import { GPU_MEMORY_GIB_SQL, TDP_WATTS_SQL } from "./provider-instances";
import type { SourceLevel } from "./ranges";
import { seconds } from "./sql-util";

/** The gate's row and what the chart needs of the instance (null where the organization has no such instance). */
export type ChartHeadRow = OrgAccessRow & {
  gpu_count: number | null;
  slices_per_gpu: number | null;
  gpu_memory_gib: number | null;
  tdp_watts: number | null;
};

/**
 * The access check and the instance's chart figures in one round trip: the gate's statement (orgAccessSql) and
 * the instance of that organization only, so a stranger's or another organization's token's request reads no
 * row at all (issue 13: the gate's own round trip, then the provider's wide instance read, cost ~2 ms of a
 * 7-day chart). The caller passes the row through judgeOrgAccess before using anything in it.
 */
export function chartHeadQuery(access: SQL, instanceId: string | null): SQL {
  return sql`with a as (${access} limit 1)
    select a.*, i.gpu_count, i.slices_per_gpu, i.gpu_memory_gib, i.tdp_watts
    from a left join lateral (
      select i.gpu_count, i.slices_per_gpu, ${GPU_MEMORY_GIB_SQL} as gpu_memory_gib, ${TDP_WATTS_SQL} as tdp_watts
      from instances i
      join gpu_models g on g.id = i.gpu_model_id
      join instance_types t on t.id = i.instance_type_id
      where i.id = ${instanceId}::uuid and i.org_id = a.org_id
    ) i on true`;
}

/**
 * The columns a chart metric reads: in raw samples, the level arrays' mean and peak, and the level row's
 * all-GPU weighted sum and peak (metric_chart_levels).
 */
export type ChartColumns = { raw: string; avg: string; max: string; wsum: string; peak: string };

export type ChartQueryInput = {
  instanceId: string;
  /** The instance's GPU count: one column per GPU (the statement's shape depends on it). */
  gpuCount: number;
  /** The instance's organization: every part of the statement reads only its rows (tenant scoping). */
  orgId: string;
  col: ChartColumns;
  /** The range's level (ranges.ts); the window's newest edge is read from finer sources. */
  level: SourceLevel;
  binSeconds: number;
  from: Date;
  to: Date;
};

/**
 * The chart statement's one row: bin indexes from the window's first bin, each GPU's and the average's values.
 * A bin that is one whole level row comes apart (lk, lv, la), its GPUs' values as the level stores them.
 */
export type ChartRow = {
  /** Bin k starts at firstBin + k × bin; the grouped bins with any data, in the same order as every values array. */
  k: number[] | null;
  /** Per GPU (index = gpu_index), the value of each bin in k; null where that GPU reported nothing. */
  gpus: Array<Array<number | null> | null>;
  avg: Array<number | null> | null;
  /** Bins that are one level row holding every GPU (bin width = level, the 1 h, 6 h and 7 d charts). */
  lk: number[] | null;
  /** Per bin in lk, every GPU's value as a real (float4: Math.fround of it is the stored value exactly). */
  lv: number[][] | null;
  /** Per bin in lk, the all-GPU average. */
  la: number[] | null;
  mean: number | null;
  peak: number | null;
};

/**
 * The chart's SQL: the range's level up to its newest bucket (which the rollup job may have written partly
 * filled), the 1-minute level from there to its own newest bucket, and raw samples after that (for the 10 s
 * and 1 min levels: the level to its newest bucket, then raw samples), so the newest edge is as fresh as the
 * raw samples and every part reads only what the coarser one does not hold. A level row holds all GPUs of one
 * bucket (metric_chart_levels), so the level part reads one row per bucket whatever the GPU count; the tails
 * hold a couple of minutes. An instance without a level yet reads the finer source for the whole window. Level
 * rows are weighted by their sample counts, so a partly filled bucket counts for what it holds and the result is
 * the same downsampling as over the raw samples.
 *
 * Pivoted: every source row becomes one row per bucket with a (samples, weighted sum) column pair per GPU, so
 * one GROUP BY bin gives each GPU's bins, the all-GPU average and the window's mean and peak, and the statement
 * returns one row of json arrays (ChartRow) with bin indexes instead of timestamps. Issue 13: unnesting each
 * level row into a row per GPU and grouping those (GROUPING SETS, then a sort and json_agg per series) cost
 * ~11 ms for 8 GPUs over 7 days, mostly per-row executor work on 4,500 rows; pivoted the same chart groups ~600
 * rows. A level row holding every GPU in order (the usual case) is read by subscript; one missing a GPU goes
 * through unnest with the raw tail. Where a bin is one level bucket wide (1 h, 6 h, 7 d), such a row is its bin
 * and skips the GROUP BY, its GPUs' values returned as the stored reals (lk, lv, la); issue 13: for 8 GPUs over
 * 7 days the grouping of those ~500 rows and writing ~4,000 8-byte floats were ~1 ms of a ~4 ms statement.
 */
export function chartQuery(q: ChartQueryInput): SQL {
  const W = q.gpuCount;
  const G = Array.from({ length: W }, (_, g) => g);
  const bin = q.binSeconds;
  const firstBin = Math.floor(q.from.getTime() / 1000 / bin);
  const kOf = (t: string) =>
    sql`(floor(date_part('epoch', ${sql.raw(t)}) / ${bin}::float8) - ${firstBin}::float8)::int4`;
  const avg = `l.${q.col.avg}`;
  const max = `l.${q.col.max}`;
  const join = (parts: SQL[], sep: string) => sql.join(parts, sql.raw(sep));
  const scope = (lvl: number, lo: SQL, hi: SQL) =>
    sql`l.instance_id = ${q.instanceId} and l.level_s = ${lvl} and l.bucket >= ${lo} and l.bucket < ${hi}
      and l.org_id = ${q.orgId}`;
  // A dense row's all-GPU sums and peak as the rollup stored them (the same as over its arrays: rollup.ts).
  const totals = sql.raw(`l.samples_total as nt, l.${q.col.wsum} as wt, l.${q.col.peak}::float8 as x`);
  // Holds GPUs 0..W-1 in order: sorted, distinct, W of them, the last W-1.
  const dense = sql.raw(`cardinality(l.gpus) = ${W} and l.gpus[${W}] = ${W - 1}`);
  const densePart = (lvl: number, lo: SQL, hi: SQL) => sql`
    select ${kOf("l.bucket")} as k,
      ${join(
        G.map((g) =>
          sql.raw(`l.samples[${g + 1}] as n${g}, ${avg}[${g + 1}]::float8 * l.samples[${g + 1}] as w${g}`),
        ),
        ", ",
      )},
      ${totals}
    from metric_chart_levels l where ${scope(lvl, lo, hi)} and ${dense}`;
  // The dense level rows as their own bins: a bin's value over one row, sum(w) / sum(n), is (avg × n) / n, which
  // is avg exactly (a real times a sample count is exact in float8), so each row's GPUs are its avg array as it
  // is, written as reals (shorter to write and parse than 8-byte floats, and recovered exactly by the reader);
  // its all-GPU sums and peak are the row's stored ones.
  const ownBinPart = (lvl: number, lo: SQL, hi: SQL) => sql`
    select ${sql.raw(G.map((g) => `null::float8 as v${g}`).join(", "))}, ${kOf("l.bucket")} as k,
      ${totals}, ${sql.raw(avg)} as lv
    from metric_chart_levels l where ${scope(lvl, lo, hi)} and ${dense}`;
  const sparsePart = (lvl: number, lo: SQL, hi: SQL) => sql`
    select x.gpu, l.bucket as at, l.samples[x.i] as n, ${sql.raw(avg)}[x.i]::float8 * l.samples[x.i] as w,
      ${sql.raw(max)}[x.i]::float8 as x
    from metric_chart_levels l cross join lateral unnest(l.gpus) with ordinality as x(gpu, i)
    where ${scope(lvl, lo, hi)} and not (${dense}) and x.gpu < ${W}`;
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
  const e1 = sql`(select e1 from edges)`;
  const e2 = sql`(select e2 from edges)`;
  const levelHi = fine ? e1 : e2;
  const rawCol = sql.raw(`m.${q.col.raw}`);
  const at = (g: number, v: string) => `case when p.gpu = ${g} then ${v} end`;
  // A bin one level bucket wide (the 1 h, 6 h and 7 d charts' own bins): a whole level row is its bin, so
  // its GPUs' values are the row's own and only the sparse rows and the edge go through the GROUP BY.
  const ownBins = bin === q.level;
  const grouped = sql`
      select ${sql.raw(G.map((g) => `sum(s.w${g}) / sum(s.n${g}) as v${g}`).join(", "))},
        s.k, sum(s.nt) as nt, sum(s.wt) as wt, max(s.x) as x, null::real[] as lv
      from s group by s.k`;
  return sql`
    with edges as materialized (${edges}),
    -- One row per GPU and source row: level rows missing a GPU, and the raw tail (a descent per GPU).
    p as (
      ${sparsePart(q.level, sql`${q.from}`, levelHi)}
      ${fine ? sql`union all ${sparsePart(60, e1, e2)}` : sql``}
      union all
      select m.gpu_index, m.at, 1, ${rawCol}::float8, ${rawCol}::float8 from metric_samples m
      where m.instance_id = ${q.instanceId} and m.gpu_index = any(${sql.param(G)}::int2[])
        and m.at >= ${e2} and m.at <= ${q.to} and m.org_id = ${q.orgId}
    ),
    s as (
      ${ownBins ? sql`` : sql`${densePart(q.level, sql`${q.from}`, levelHi)} union all`}
      ${fine ? sql`${densePart(60, e1, e2)} union all` : sql``}
      select ${kOf("p.at")} as k,
        ${sql.raw(G.map((g) => `${at(g, "p.n")} as n${g}, ${at(g, "p.w")} as w${g}`).join(", "))},
        p.n as nt, p.w as wt, p.x
      from p
    ),
    b as (
      ${grouped}
      ${ownBins ? sql`union all ${ownBinPart(q.level, sql`${q.from}`, levelHi)}` : sql``}
    )
    -- One aggregate node: every json_agg sees the bins in the same order, so k[j] and each values[j] pair up
    -- (likewise lk, lv and la: the same filter).
    select json_agg(b.k) filter (where b.lv is null) as k,
      json_build_array(${sql.raw(G.map((g) => `json_agg(b.v${g}) filter (where b.lv is null)`).join(", "))}) as gpus,
      json_agg(b.wt / b.nt) filter (where b.lv is null) as avg,
      json_agg(b.k) filter (where b.lv is not null) as lk, json_agg(b.lv) filter (where b.lv is not null) as lv,
      json_agg(b.wt / b.nt) filter (where b.lv is not null) as la,
      sum(b.wt) / sum(b.nt) as mean, max(b.x) as peak
    from b`;
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
