import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Ctx, nowOf, parseInput, UnauthorizedError } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { ANALYTICS_BIN_SECONDS, CHART_RANGES, type ChartRange, RANGE_SPECS } from "./ranges";
import { epochMs, seconds } from "./sql-util";

export const queueWaitQuerySchema = z.object({
  regionCode: z.string().trim().min(1).max(64).optional(),
  gpuModelId: z.string().trim().min(1).max(64).optional(),
  range: z.enum(CHART_RANGES).default("7d"),
});
export type QueueWaitQuery = z.input<typeof queueWaitQuerySchema>;

export type QueueWaitPoint = {
  /** Bucket start, epoch ms. */
  t: number;
  /** Waits that ended (the instance started provisioning) in the bucket; null percentiles when none. */
  count: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
};
export type QueueDepth = {
  regionCode: string;
  gpuModelId: string;
  queued: number;
  gpusQueued: number;
  /** How long the oldest queued instance has waited so far. */
  oldestWaitSeconds: number;
};
export type QueueWaitSeries = {
  range: ChartRange;
  binSeconds: number;
  from: string;
  to: string;
  points: QueueWaitPoint[];
  depth: QueueDepth[];
};

/**
 * Waits that ended in (from, to], as the transitions stored them (queue_waits: one row per queued →
 * provisioning, with region and GPU model), under alias "i" so filterOf applies. An index-only range scan.
 */
export function waitsCte(from: Date, to: Date, filter: SQL): SQL {
  return sql`
    waits as (
      select i.ended_at, i.wait_seconds as wait_s, i.region_code, i.gpu_model_id
      from queue_waits i
      where i.ended_at > ${from} and i.ended_at <= ${to} and ${filter}
    )`;
}

/** Region / GPU model filter on a table alias: "i" (instances, or queue_waits as in waitsCte) or "n" (nodes). */
export function filterOf(q: { regionCode?: string; gpuModelId?: string }, alias: "i" | "n" = "i"): SQL {
  const parts: SQL[] = [sql`true`];
  const a = sql.raw(alias);
  if (q.regionCode) parts.push(sql`${a}.region_code = ${q.regionCode}`);
  if (q.gpuModelId) parts.push(sql`${a}.gpu_model_id = ${q.gpuModelId}`);
  return sql.join(parts, sql` and `);
}

/**
 * Queue-time analytics for the fleet (any signed-in user: aggregates only, no tenant's rows): wait p50/p95 per
 * time bucket over the range, computed in SQL with percentile_cont, and the current queue depth per region ×
 * GPU model. Filters narrow both to one region and/or GPU model.
 */
export async function queueWaitSeries(
  ctx: Ctx,
  raw: QueueWaitQuery & { now?: Date },
): Promise<QueueWaitSeries> {
  if (ctx.actor.kind !== "user" && ctx.actor.kind !== "system") throw new UnauthorizedError();
  const q = parseInput(queueWaitQuerySchema, raw);
  const now = raw.now ?? nowOf(ctx);
  const from = new Date(now.getTime() - RANGE_SPECS[q.range].seconds * 1000);
  const bin = ANALYTICS_BIN_SECONDS[q.range];
  const filter = filterOf(q);
  const exec = readDb(ctx);
  const points = await exec.execute<{ t: number; count: number; p50: number | null; p95: number | null }>(sql`
    with ${waitsCte(from, now, filter)},
    bins as (
      select generate_series(
        date_bin(${seconds(bin)}, ${from}::timestamptz, timestamptz 'epoch'),
        date_bin(${seconds(bin)}, ${now}::timestamptz, timestamptz 'epoch'),
        ${seconds(bin)}) as t
    )
    select ${epochMs(sql`b.t`)} as t, count(w.wait_s)::int as count,
      percentile_cont(0.5) within group (order by w.wait_s) as p50,
      percentile_cont(0.95) within group (order by w.wait_s) as p95
    from bins b
    left join waits w on date_bin(${seconds(bin)}, w.ended_at, timestamptz 'epoch') = b.t
    group by b.t order by b.t`);
  const depth = await exec.execute<{
    region_code: string;
    gpu_model_id: string;
    queued: number;
    gpus: number;
    oldest: number;
  }>(sql`
    select i.region_code, i.gpu_model_id, count(*)::int as queued, sum(i.gpu_count)::int as gpus,
      coalesce(max(extract(epoch from ${now}::timestamptz - i.queued_at)), 0)::float8 as oldest
    from instances i
    where i.state = 'queued' and ${filter}
    group by i.region_code, i.gpu_model_id
    order by queued desc, i.region_code, i.gpu_model_id`);
  return {
    range: q.range,
    binSeconds: bin,
    from: from.toISOString(),
    to: now.toISOString(),
    points: points.rows.map((r) => ({
      t: Number(r.t),
      count: Number(r.count),
      p50Seconds: r.p50 === null ? null : Math.round(Number(r.p50) * 10) / 10,
      p95Seconds: r.p95 === null ? null : Math.round(Number(r.p95) * 10) / 10,
    })),
    depth: depth.rows.map((r) => ({
      regionCode: r.region_code,
      gpuModelId: r.gpu_model_id,
      queued: Number(r.queued),
      gpusQueued: Number(r.gpus),
      oldestWaitSeconds: Math.max(0, Math.round(Number(r.oldest))),
    })),
  };
}

export type ExpectedWait = {
  regionCode: string;
  gpuModelId: string;
  waits: number;
  p50Seconds: number;
  p95Seconds: number;
};

/** Recent wait percentiles per region × GPU model, for the catalog's "expected wait" on each offering. */
export async function expectedWaits(
  ctx: Ctx,
  opts: { now?: Date; windowHours?: number } = {},
): Promise<ExpectedWait[]> {
  const now = opts.now ?? nowOf(ctx);
  const from = new Date(now.getTime() - (opts.windowHours ?? 24 * 7) * 3_600_000);
  const exec = readDb(ctx);
  const res = await exec.execute<{
    region_code: string;
    gpu_model_id: string;
    n: number;
    p50: number;
    p95: number;
  }>(sql`
    with ${waitsCte(from, now, sql`true`)}
    select w.region_code, w.gpu_model_id, count(*)::int as n,
      percentile_cont(0.5) within group (order by w.wait_s) as p50,
      percentile_cont(0.95) within group (order by w.wait_s) as p95
    from waits w
    group by 1, 2`);
  return res.rows.map((r) => ({
    regionCode: r.region_code,
    gpuModelId: r.gpu_model_id,
    waits: Number(r.n),
    p50Seconds: Math.round(Number(r.p50)),
    p95Seconds: Math.round(Number(r.p95)),
  }));
}
