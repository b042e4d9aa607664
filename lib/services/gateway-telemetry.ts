import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { bucketOf, emptyHistogram } from "./histogram";

type Second = {
  orgId: string;
  requests: number;
  s2: number;
  s4: number;
  s5: number;
  holdTimeouts: number;
  held: number;
  /** In-flight × milliseconds accumulated during the second. */
  inflightMs: number;
  latency: number[];
};

const zeroSecond = (orgId: string): Second => ({
  orgId,
  requests: 0,
  s2: 0,
  s4: 0,
  s5: 0,
  holdTimeouts: 0,
  held: 0,
  inflightMs: 0,
  latency: emptyHistogram(),
});

/**
 * Per-service traffic of one gateway, kept per second in memory and written every second into service_traffic
 * (one upsert per service and second): request rate, status classes, held requests and hold timeouts, mean
 * concurrency and the latency histogram. The autoscaler and the service page read those rows.
 */
export function createGatewayTelemetry(gatewayId: string) {
  const seconds = new Map<string, Map<number, Second>>();
  const inflight = new Map<string, { n: number; since: number; orgId: string }>();
  const queued = new Map<string, { n: number; orgId: string }>();

  const secOf = (serviceId: string, orgId: string, at: number): Second => {
    let bySec = seconds.get(serviceId);
    if (!bySec) {
      bySec = new Map();
      seconds.set(serviceId, bySec);
    }
    const key = Math.floor(at / 1000);
    let s = bySec.get(key);
    if (!s) {
      s = zeroSecond(orgId);
      bySec.set(key, s);
    }
    return s;
  };

  /** Adds in-flight × time up to `now`, split over the seconds it spans. */
  const accrue = (serviceId: string, now: number) => {
    const f = inflight.get(serviceId);
    if (!f) return;
    let t = f.since;
    while (t < now) {
      const end = Math.min(now, (Math.floor(t / 1000) + 1) * 1000);
      if (f.n > 0) secOf(serviceId, f.orgId, t).inflightMs += f.n * (end - t);
      t = end;
    }
    f.since = now;
  };

  return {
    started(serviceId: string, orgId: string) {
      const now = Date.now();
      accrue(serviceId, now);
      const f = inflight.get(serviceId) ?? { n: 0, since: now, orgId };
      f.n += 1;
      inflight.set(serviceId, f);
      secOf(serviceId, orgId, now).requests += 1;
    },
    finished(
      serviceId: string,
      orgId: string,
      status: number,
      latencyMs: number,
      opts: { held?: boolean; holdTimeout?: boolean } = {},
    ) {
      const now = Date.now();
      accrue(serviceId, now);
      const f = inflight.get(serviceId);
      if (f) f.n = Math.max(0, f.n - 1);
      const s = secOf(serviceId, orgId, now);
      if (status >= 500) s.s5 += 1;
      else if (status >= 400) s.s4 += 1;
      else s.s2 += 1;
      if (opts.held) s.held += 1;
      if (opts.holdTimeout) s.holdTimeouts += 1;
      const b = bucketOf(latencyMs);
      s.latency[b] = (s.latency[b] ?? 0) + 1;
    },
    setQueued(serviceId: string, orgId: string, n: number) {
      queued.set(serviceId, { n, orgId });
    },
    /** Writes every complete second (and the current one, marked with the queue length) and forgets them. */
    async flush(): Promise<void> {
      const now = Date.now();
      const current = Math.floor(now / 1000);
      for (const id of inflight.keys()) accrue(id, now);
      const rows: Array<{ serviceId: string; at: number; s: Second; queued: number }> = [];
      for (const [serviceId, bySec] of seconds) {
        for (const [sec, s] of bySec) {
          rows.push({ serviceId, at: sec, s, queued: 0 });
          if (sec < current) bySec.delete(sec);
          else bySec.set(sec, zeroSecond(s.orgId));
        }
      }
      for (const [serviceId, q] of queued) {
        const row = rows.find((r) => r.serviceId === serviceId && r.at === current);
        if (row) row.queued = q.n;
        else if (q.n > 0) {
          rows.push({
            serviceId,
            at: current,
            s: zeroSecond(q.orgId),
            queued: q.n,
          });
        }
      }
      if (rows.length === 0) return;
      const values = rows.map(
        (
          r,
        ) => sql`(${r.s.orgId}::uuid, ${r.serviceId}::uuid, ${gatewayId}, to_timestamp(${r.at}), ${r.s.requests},
          ${r.s.s2}, ${r.s.s4}, ${r.s.s5}, ${r.s.holdTimeouts}, ${r.s.held}, ${r.s.inflightMs / 1000}, ${r.queued},
          ${`{${r.s.latency.join(",")}}`}::int[])`,
      );
      await getDb().execute(sql`
        insert into service_traffic (org_id, service_id, gateway, at, requests, status_2xx, status_4xx, status_5xx,
          hold_timeouts, held, concurrency, queued, latency_buckets)
        values ${sql.join(values, sql`, `)}
        on conflict (service_id, gateway, at) do update set
          requests = service_traffic.requests + excluded.requests,
          status_2xx = service_traffic.status_2xx + excluded.status_2xx,
          status_4xx = service_traffic.status_4xx + excluded.status_4xx,
          status_5xx = service_traffic.status_5xx + excluded.status_5xx,
          hold_timeouts = service_traffic.hold_timeouts + excluded.hold_timeouts,
          held = service_traffic.held + excluded.held,
          concurrency = service_traffic.concurrency + excluded.concurrency,
          queued = excluded.queued,
          latency_buckets = array(select a + b from unnest(service_traffic.latency_buckets, excluded.latency_buckets) as u(a, b))`);
    },
  };
}
export type GatewayTelemetry = ReturnType<typeof createGatewayTelemetry>;
