import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { ROLLUP_LOOKBACK_MS } from "./rollup";

/** Raw 10-second samples are kept this many days unless FORJA_RAW_SAMPLE_RETENTION_DAYS says otherwise. */
export const DEFAULT_RAW_RETENTION_DAYS = 8;
/**
 * Never fewer: the rollup job re-reads raw samples up to ROLLUP_LOOKBACK_MS (24 h) back after an outage, and
 * the 24 h chart reads raw samples; a day more leaves room for both.
 */
export const MIN_RAW_RETENTION_DAYS = Math.ceil(ROLLUP_LOOKBACK_MS / 86_400_000) + 1;

/** The configured retention in days (FORJA_RAW_SAMPLE_RETENTION_DAYS), never under the minimum. */
export function rawRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const raw = env.FORJA_RAW_SAMPLE_RETENTION_DAYS;
  const days = raw === undefined || raw.trim() === "" ? DEFAULT_RAW_RETENTION_DAYS : Number(raw);
  if (!Number.isFinite(days)) {
    throw new Error(`FORJA_RAW_SAMPLE_RETENTION_DAYS must be a number of days, got "${raw}"`);
  }
  return Math.max(MIN_RAW_RETENTION_DAYS, Math.floor(days));
}

/**
 * Deletes raw samples older than the retention, and the 10-second chart level with them (the rollups and the
 * coarser levels keep their history for charts and energy). Works
 * through the primary key per (instance, GPU) — a scan by time alone would read the whole table — for at most
 * `batchInstances` instances per statement, so each transaction stays short; concurrent runs only delete
 * fewer rows each. Returns the rows deleted.
 */
export async function pruneRawSamples(
  ctx: Ctx,
  opts: { now?: Date; keepDays?: number; batchInstances?: number } = {},
): Promise<{ deleted: number; cutoff: Date }> {
  const keepDays = Math.max(MIN_RAW_RETENTION_DAYS, opts.keepDays ?? rawRetentionDays());
  const cutoff = new Date((opts.now ?? nowOf(ctx)).getTime() - keepDays * 86_400_000);
  const exec = readDb(ctx);
  const batch = opts.batchInstances ?? 50;
  // Instances that started before the cutoff are the only ones that can have samples older than it.
  const ids = (
    await exec.execute<{ id: string }>(
      sql`select id from instances where started_at is not null and started_at < ${cutoff} order by id`,
    )
  ).rows.map((r) => r.id);
  let deleted = 0;
  for (let i = 0; i < ids.length; i += batch) {
    const res = await exec.execute(sql`
      delete from metric_samples m
      using instances i cross join generate_series(0, i.gpu_count - 1) as g(gpu_index)
      where i.id = any(${`{${ids.slice(i, i + batch).join(",")}}`}::uuid[])
        and m.instance_id = i.id and m.gpu_index = g.gpu_index and m.at < ${cutoff}`);
    deleted += res.rowCount ?? 0;
    // The 10-second chart level is the raw samples at chart resolution: it goes with them.
    await exec.execute(sql`
      delete from metric_chart_levels l
      where l.instance_id = any(${`{${ids.slice(i, i + batch).join(",")}}`}::uuid[]) and l.level_s = 10
        and l.bucket < ${cutoff}`);
  }
  return { deleted, cutoff };
}
