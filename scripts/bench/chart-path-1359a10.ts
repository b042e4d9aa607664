/**
 * The 7-day chart's path as utilizationSeries ran it at 1359a10, kept for the bench only: the access check with
 * the instance's chart figures in one prepared statement (series-sql.ts's chartHeadQuery then), the chart
 * statement of then (chart-query-1359a10.ts, prepared) and the same shaping into points. telemetry-chart times
 * it beside today's utilizationSeries in the same run.
 */
import { sql } from "drizzle-orm";
import { type Ctx, judgeOrgAccess, type OrgAccessRow, orgAccessSql } from "@/lib/access";
import { getDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";
import { chartQuery1359a10 } from "./chart-query-1359a10";

type Head = OrgAccessRow & {
  gpu_count: number | null;
  slices_per_gpu: number | null;
  gpu_memory_gib: number | null;
  tdp_watts: number | null;
};
type Row = {
  k: number[] | null;
  gpus: Array<Array<number | null> | null>;
  avg: Array<number | null> | null;
  mean: number | null;
  peak: number | null;
};
type Input = Omit<Parameters<typeof chartQuery1359a10>[0], "gpuCount" | "orgId">;

const round = (v: number | string | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);

export async function chartPath1359a10(ctx: Ctx, orgSlug: string, q: Input): Promise<unknown> {
  const db = getDb();
  const access = orgAccessSql(ctx, orgSlug);
  if (!access) throw new Error("no access statement");
  const [head] = (
    await executePrepared<Head>(
      db,
      sql`with a as (${access} limit 1)
    select a.*, i.gpu_count, i.slices_per_gpu, i.gpu_memory_gib, i.tdp_watts
    from a left join lateral (
      select i.gpu_count, i.slices_per_gpu, coalesce(
        (select (p->>'memoryGib')::int from jsonb_array_elements(g.mig_profiles) p
          where p->>'name' = t.mig_profile limit 1),
        g.memory_gib) as gpu_memory_gib, coalesce(g.tdp_watts, ${FALLBACK_TDP_WATTS}) as tdp_watts
      from instances i
      join gpu_models g on g.id = i.gpu_model_id
      join instance_types t on t.id = i.instance_type_id
      where i.id = ${q.instanceId}::uuid and i.org_id = a.org_id
    ) i on true`,
    )
  ).rows;
  const { org } = judgeOrgAccess(ctx, head, "viewer");
  if (!head || head.gpu_count === null) throw new Error("no instance");
  const gpuCount = Number(head.gpu_count);
  const [chart] = (await executePrepared<Row>(db, chartQuery1359a10({ ...q, gpuCount, orgId: org.id }))).rows;
  const binMs = q.binSeconds * 1000;
  const firstBin = Math.floor(q.from.getTime() / binMs) * binMs;
  const bins = Math.floor(q.to.getTime() / binMs) - firstBin / binMs + 1;
  const series = (values: Array<number | null> | null | undefined) => {
    const points = Array.from({ length: bins }, (_, k) => ({
      t: firstBin + k * binMs,
      v: null as number | null,
    }));
    const ks = chart?.k ?? [];
    if (values)
      for (let j = 0; j < ks.length; j++) {
        const point = points[ks[j] as number];
        if (point) point.v = round(values[j] ?? null);
      }
    return points;
  };
  const gpus = Array.from({ length: gpuCount }, (_, gpuIndex) => ({
    gpuIndex,
    points: series(chart?.gpus?.[gpuIndex]),
  }));
  const average = series(chart?.avg);
  let latest: number | null = null;
  for (let k = average.length - 1; k >= 0 && latest === null; k--) latest = average[k]?.v ?? null;
  return { gpus, average, mean: round(chart?.mean ?? null), peak: round(chart?.peak ?? null), latest };
}
