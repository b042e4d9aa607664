import "server-only";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Ctx, nowOf, parseInput, UnauthorizedError } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { filterOf, queueWaitQuerySchema, waitsCte } from "./queue";
import { ANALYTICS_BIN_SECONDS, type ChartRange, RANGE_SPECS } from "./ranges";
import { epochMs, seconds } from "./sql-util";

/**
 * The queue-time page draws one chart per region × GPU model. queueWaitSeries pools the waits of everything
 * its filters match, so a per-pair view would cost one query per pair; this reads every pair's percentiles in
 * one grouped statement instead.
 */
export const queueWaitsByOfferingSchema = queueWaitQuerySchema;
export type QueueWaitsByOfferingQuery = z.input<typeof queueWaitsByOfferingSchema>;

export type OfferingWaitPoint = {
  t: number;
  count: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
};
export type OfferingWaitSeries = {
  regionCode: string;
  regionName: string;
  gpuModelId: string;
  gpuModelName: string;
  /** Waits that ended in the whole range; the pairs come busiest first. */
  waits: number;
  points: OfferingWaitPoint[];
};
export type QueueWaitsByOffering = {
  range: ChartRange;
  binSeconds: number;
  from: string;
  to: string;
  series: OfferingWaitSeries[];
};

type Row = {
  region_code: string;
  region_name: string;
  gpu_model_id: string;
  gpu_model_name: string;
  t: number;
  n: number;
  p50: number | null;
  p95: number | null;
};

/**
 * Wait p50/p95 per region × GPU model × time bucket, percentile_cont in SQL. A wait is a queued → provisioning
 * pair of lifecycle events (the same definition as queueWaitSeries). Every pair of the fleet is listed, with
 * empty buckets, so a quiet GPU shows an honest empty chart rather than disappearing. Aggregates across
 * tenants only: no tenant's instance is named.
 */
export async function queueWaitsByOffering(
  ctx: Ctx,
  raw: QueueWaitsByOfferingQuery & { now?: Date },
): Promise<QueueWaitsByOffering> {
  if (ctx.actor.kind !== "user" && ctx.actor.kind !== "system") throw new UnauthorizedError();
  const q = parseInput(queueWaitsByOfferingSchema, raw);
  const now = raw.now ?? nowOf(ctx);
  const from = new Date(now.getTime() - RANGE_SPECS[q.range].seconds * 1000);
  const bin = seconds(ANALYTICS_BIN_SECONDS[q.range]);
  const onInstance = filterOf(q, "i");
  const onNode = filterOf(q, "n");
  const res = await readDb(ctx).execute<Row>(sql`
    with ${waitsCte(from, now, onInstance)},
    pairs as (
      select n.region_code, n.gpu_model_id from nodes n where ${onNode}
      union
      select region_code, gpu_model_id from waits
    ),
    bins as (
      select generate_series(
        date_bin(${bin}, ${from}::timestamptz, timestamptz 'epoch'),
        date_bin(${bin}, ${now}::timestamptz, timestamptz 'epoch'),
        ${bin}) as t
    ),
    agg as (
      select region_code, gpu_model_id, date_bin(${bin}, ended_at, timestamptz 'epoch') as t, count(*)::int as n,
        percentile_cont(0.5) within group (order by wait_s) as p50,
        percentile_cont(0.95) within group (order by wait_s) as p95
      from waits group by 1, 2, 3
    )
    select p.region_code, r.name as region_name, p.gpu_model_id, g.name as gpu_model_name,
      ${epochMs(sql`b.t`)} as t, coalesce(a.n, 0) as n, a.p50, a.p95
    from pairs p
    join regions r on r.code = p.region_code
    join gpu_models g on g.id = p.gpu_model_id
    cross join bins b
    left join agg a on a.region_code = p.region_code and a.gpu_model_id = p.gpu_model_id and a.t = b.t
    order by r.name, g.name, b.t`);

  const byPair = new Map<string, OfferingWaitSeries>();
  for (const r of res.rows) {
    const key = `${r.region_code}/${r.gpu_model_id}`;
    let s = byPair.get(key);
    if (!s) {
      s = {
        regionCode: r.region_code,
        regionName: r.region_name,
        gpuModelId: r.gpu_model_id,
        gpuModelName: r.gpu_model_name,
        waits: 0,
        points: [],
      };
      byPair.set(key, s);
    }
    s.waits += Number(r.n);
    s.points.push({ t: Number(r.t), count: Number(r.n), p50Seconds: tenth(r.p50), p95Seconds: tenth(r.p95) });
  }
  return {
    range: q.range,
    binSeconds: ANALYTICS_BIN_SECONDS[q.range],
    from: from.toISOString(),
    to: now.toISOString(),
    // Stable sort: equally busy pairs keep the SQL order (region, then model).
    series: [...byPair.values()].sort((a, b) => b.waits - a.waits),
  };
}

const tenth = (v: number | string | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
