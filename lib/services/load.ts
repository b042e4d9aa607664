import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { PANIC_WINDOW_S, STABLE_WINDOW_S } from "./decide";

export type ObservedLoad = {
  stableRps: number;
  panicRps: number;
  stableConcurrency: number;
  panicConcurrency: number;
  /** The most requests held in a gateway at a flush within the last 3 s. */
  waiting: number;
  lastRequestAt: Date | null;
};

/**
 * The gateway telemetry of one service over the stable and panic windows, added up over gateways in SQL.
 * Concurrency counts held requests too: they are load the replicas will have to take.
 */
export async function observedLoad(
  exec: Executor,
  serviceId: string,
  now: Date,
  graceS: number,
): Promise<ObservedLoad> {
  const res = await exec.execute<{
    stable_req: number;
    panic_req: number;
    stable_conc: number;
    panic_conc: number;
    waiting: number;
    last_at: string | null;
  }>(sql`
    select
      coalesce(sum(requests) filter (where at > ${now}::timestamptz - make_interval(secs => ${STABLE_WINDOW_S})), 0)::float8 as stable_req,
      coalesce(sum(requests) filter (where at > ${now}::timestamptz - make_interval(secs => ${PANIC_WINDOW_S})), 0)::float8 as panic_req,
      coalesce(sum(concurrency + queued) filter (where at > ${now}::timestamptz - make_interval(secs => ${STABLE_WINDOW_S})), 0)::float8 as stable_conc,
      coalesce(sum(concurrency + queued) filter (where at > ${now}::timestamptz - make_interval(secs => ${PANIC_WINDOW_S})), 0)::float8 as panic_conc,
      coalesce(max(queued) filter (where at > ${now}::timestamptz - interval '3 seconds'), 0)::float8 as waiting,
      max(at) filter (where requests > 0 or queued > 0) as last_at
    from service_traffic
    where service_id = ${serviceId} and at > ${now}::timestamptz - make_interval(secs => ${Math.max(STABLE_WINDOW_S, graceS)})
      and at <= ${now}`);
  const r = res.rows[0];
  const n = (v: unknown) => Number(v ?? 0);
  return {
    stableRps: n(r?.stable_req) / STABLE_WINDOW_S,
    panicRps: n(r?.panic_req) / PANIC_WINDOW_S,
    stableConcurrency: n(r?.stable_conc) / STABLE_WINDOW_S,
    panicConcurrency: n(r?.panic_conc) / PANIC_WINDOW_S,
    waiting: n(r?.waiting),
    lastRequestAt: r?.last_at ? new Date(r.last_at) : null,
  };
}
