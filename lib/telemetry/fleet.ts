import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { type Ctx, nowOf, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { ANALYTICS_BIN_SECONDS, CHART_RANGES, type ChartRange, RANGE_SPECS } from "./ranges";
import { epochMs, seconds } from "./sql-util";

export const fleetCapacityQuerySchema = z.object({ range: z.enum(CHART_RANGES).default("7d") });
export type FleetCapacityQuery = z.input<typeof fleetCapacityQuerySchema>;

export type FleetCapacityPoint = {
  /** Bucket start, epoch ms. */
  t: number;
  /** GPUs on active or draining nodes that existed by the end of the bucket. */
  capacityGpus: number;
  /** Time-weighted average of GPUs held by instances in the bucket (a MIG slice counts slices / 7). */
  usedGpus: number;
};
export type FleetCapacitySeries = {
  range: ChartRange;
  binSeconds: number;
  from: string;
  to: string;
  series: Array<{ regionCode: string; gpuModelId: string; points: FleetCapacityPoint[] }>;
};

/**
 * Capacity vs. used GPUs per region × GPU model over time, for operators. Used comes from the allocation
 * history (allocated_at / released_at) as the overlap of each allocation with each generate_series bucket,
 * so a 10-minute job in a 6-hour bucket weighs 10 minutes. Nodes that are down now are left out of capacity
 * (node status history is not kept).
 */
export async function fleetCapacitySeries(
  ctx: Ctx,
  raw: FleetCapacityQuery & { now?: Date },
): Promise<FleetCapacitySeries> {
  requireOperator(ctx);
  const { range } = parseInput(fleetCapacityQuerySchema, raw);
  const now = raw.now ?? nowOf(ctx);
  const from = new Date(now.getTime() - RANGE_SPECS[range].seconds * 1000);
  const bin = ANALYTICS_BIN_SECONDS[range];
  const exec = readDb(ctx);
  const res = await exec.execute<{
    region_code: string;
    gpu_model_id: string;
    t: number;
    capacity: number;
    used: number;
  }>(sql`
    with bins as (
      select t, least(t + ${seconds(bin)}, ${now}::timestamptz) as t_end
      from generate_series(
        date_bin(${seconds(bin)}, ${from}::timestamptz, timestamptz 'epoch'),
        date_bin(${seconds(bin)}, ${now}::timestamptz, timestamptz 'epoch'),
        ${seconds(bin)}) as t
      where t < ${now}::timestamptz
    ),
    pools as (
      select region_code, gpu_model_id from nodes where status <> 'down' group by 1, 2
    ),
    capacity as (
      select b.t, n.region_code, n.gpu_model_id, sum(n.gpu_count)::int as gpus
      from bins b join nodes n on n.status <> 'down' and n.created_at < b.t_end
      group by 1, 2, 3
    ),
    used as (
      select b.t, n.region_code, n.gpu_model_id,
        sum(a.slices / 7.0 * extract(epoch from
              least(coalesce(a.released_at, ${now}::timestamptz), b.t_end) - greatest(a.allocated_at, b.t)))
          / nullif(extract(epoch from b.t_end - b.t), 0) as gpus
      from bins b
      join gpu_allocations a on a.allocated_at < b.t_end and coalesce(a.released_at, 'infinity') > b.t
      join nodes n on n.id = a.node_id
      group by b.t, b.t_end, n.region_code, n.gpu_model_id
    )
    select p.region_code, p.gpu_model_id, ${epochMs(sql`b.t`)} as t,
      coalesce(c.gpus, 0) as capacity, round(coalesce(u.gpus, 0)::numeric, 2)::float8 as used
    from pools p cross join bins b
    left join capacity c on c.t = b.t and c.region_code = p.region_code and c.gpu_model_id = p.gpu_model_id
    left join used u on u.t = b.t and u.region_code = p.region_code and u.gpu_model_id = p.gpu_model_id
    order by p.region_code, p.gpu_model_id, b.t`);
  const series = new Map<string, FleetCapacitySeries["series"][number]>();
  for (const r of res.rows) {
    const key = `${r.region_code}/${r.gpu_model_id}`;
    let s = series.get(key);
    if (!s) {
      s = { regionCode: r.region_code, gpuModelId: r.gpu_model_id, points: [] };
      series.set(key, s);
    }
    s.points.push({ t: Number(r.t), capacityGpus: Number(r.capacity), usedGpus: Number(r.used) });
  }
  return {
    range,
    binSeconds: bin,
    from: from.toISOString(),
    to: now.toISOString(),
    series: [...series.values()],
  };
}
