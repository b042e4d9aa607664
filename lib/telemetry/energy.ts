import "server-only";
import { sql } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";

const SAMPLE_SECONDS = 10;

/**
 * Energy drawn by an instance's GPUs in [from, to), in kWh, from measured power: the 5-minute rollups that lie
 * wholly inside the window, plus raw samples (each standing for its 10 s) before the first and after the last
 * of them, which covers partial edge buckets and buckets not rolled up yet. Board energy only; the caller
 * applies the region's PUE for facility energy and its grid intensity for CO₂.
 */
export async function energyKwh(
  ctx: Pick<Ctx, "tx">,
  instanceId: string,
  from: Date,
  to: Date,
): Promise<number> {
  const exec = readDb(ctx);
  const res = await exec.execute<{ kwh: number | null }>(sql`
    with gpus as (
      select i.id, g.gpu_index from instances i cross join generate_series(0, i.gpu_count - 1) as g(gpu_index)
      where i.id = ${instanceId}
    ),
    rolled as (
      select coalesce(sum(r.power_avg * r.samples), 0) as watt_samples,
        min(r.bucket) as first_bucket, max(r.bucket) + interval '5 minutes' as end_bucket
      from gpus cross join lateral (
        select power_avg, samples, bucket from metric_rollups_5m
        where instance_id = gpus.id and gpu_index = gpus.gpu_index and bucket >= ${from}
          and bucket + interval '5 minutes' <= ${to}
      ) r
    ),
    edges as (
      select coalesce(sum(m.power_watts), 0) as watt_samples
      from rolled, gpus cross join lateral (
        select power_watts from metric_samples
        where instance_id = gpus.id and gpu_index = gpus.gpu_index and at >= ${from} and at < ${to}
          and (rolled.first_bucket is null or at < rolled.first_bucket or at >= rolled.end_bucket)
      ) m
    )
    select ((rolled.watt_samples + edges.watt_samples) * ${SAMPLE_SECONDS} / 3600000.0)::float8 as kwh
    from rolled, edges`);
  return Number(res.rows[0]?.kwh ?? 0);
}
