import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import type { IdleObservation } from "./rules";

/** How far before the idle window the samples are read (bounds the scan; see idleDue for why it suffices). */
const EXTRA_LOOKBACK_MS = 60 * 60_000;

/**
 * For each instance with an idle rule, in one statement: the last sample at which any GPU was at or above
 * the threshold, and the first and last samples, since it started (at most minutes + 1 h back). Reads each
 * instance's samples through the primary key (instance, gpu, at).
 */
export async function idleObservations(
  exec: Executor,
  items: Array<{ id: string; pct: number; minutes: number; startedAt: Date }>,
  now: Date,
): Promise<Map<string, IdleObservation>> {
  const out = new Map<string, IdleObservation>();
  if (items.length === 0) return out;
  const rows = items.map((i) => ({
    id: i.id,
    pct: i.pct,
    since: new Date(Math.max(i.startedAt.getTime(), now.getTime() - i.minutes * 60_000 - EXTRA_LOOKBACK_MS)),
  }));
  const res = await exec.execute<{
    id: string;
    last_busy: Date | string | null;
    first_sample: Date | string | null;
    last_sample: Date | string | null;
  }>(sql`
    select t.id, s.last_busy, s.first_sample, s.last_sample
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as t(id uuid, pct real, since timestamptz)
    cross join lateral (
      select max(m.at) filter (where m.utilization_pct >= t.pct) as last_busy,
        min(m.at) as first_sample, max(m.at) as last_sample
      from metric_samples m
      where m.instance_id = t.id and m.at >= t.since and m.at <= ${now}
    ) s`);
  const d = (v: Date | string | null) => (v === null ? null : new Date(v));
  for (const r of res.rows) {
    out.set(r.id, { lastBusy: d(r.last_busy), firstSample: d(r.first_sample), lastSample: d(r.last_sample) });
  }
  return out;
}
