/**
 * The 7-day chart's path as utilizationSeries ran it at 1417649, before the pivoted statement (issue 13), kept for
 * the bench only: the gate's round trip, then the provider's wide instance read beside the GROUP BY GROUPING
 * SETS statement (one row per series with json arrays of bin starts and values). telemetry-chart times it
 * beside today's utilizationSeries in the same run; its JavaScript shaping of the rows is left out.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Ctx, requireOrgAccess } from "@/lib/access";
import { getDb } from "@/lib/db/client";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";

// lib/telemetry/sql-util.ts's helper as it was (a domain's inner modules are not imported by path).
const seconds = (n: number): SQL => sql`make_interval(secs => ${n})`;

type ChartColumns = { raw: string; avg: string; max: string };
type ChartQueryInput = {
  instanceId: string;
  gpuCount?: number;
  orgId?: string;
  col: ChartColumns;
  level: number;
  binSeconds: number;
  from: Date;
  to: Date;
};

/** The path: gate, then instance read ∥ chart statement (series.ts at 1417649). */
export async function chartPath1417649(
  ctx: Ctx,
  orgSlug: string,
  q: Omit<ChartQueryInput, "orgId" | "gpuCount">,
): Promise<unknown> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const db = getDb();
  const [inst, rows] = await Promise.all([
    // provider-instances.ts's loadProviderInstances read at 1417649.
    db.execute(sql`
    select i.id, i.org_id, i.name, i.kind, i.workload, i.region_code, i.gpu_model_id, i.gpu_count,
      i.slices_per_gpu, i.pricing_model, i.image_id, i.node_id, i.sim_seed, i.provider_ref, i.state,
      coalesce(
        (select (p->>'memoryGib')::int from jsonb_array_elements(g.mig_profiles) p
          where p->>'name' = t.mig_profile limit 1),
        g.memory_gib) as gpu_memory_gib,
      coalesce(g.tdp_watts, ${FALLBACK_TDP_WATTS}) as tdp_watts,
      (extract(epoch from i.started_at) * 1000)::float8 as started_ms,
      (select (extract(epoch from s.at) * 1000)::float8 from metric_samples s
        where s.instance_id = i.id and s.gpu_index = 0 order by s.at desc limit 1) as last_sample_ms
    from instances i
    join gpu_models g on g.id = i.gpu_model_id
    join instance_types t on t.id = i.instance_type_id
    where i.id = ${q.instanceId} and i.org_id = ${org.id}`),
    db.execute(chartQuery1417649({ ...q, orgId: org.id })),
  ]);
  return [inst.rows, rows.rows];
}

function chartQuery1417649(q: ChartQueryInput): SQL {
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
