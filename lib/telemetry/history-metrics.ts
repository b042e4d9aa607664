import "server-only";
import { sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { type Executor, getDb } from "@/lib/db/client";
import type { MetricSample, Provider } from "@/lib/provisioning";
import { insertSamples } from "./ingest";
import { loadProviderInstances } from "./provider-instances";
import { ROLLUP_BUCKET_MS, rollupLevels } from "./rollup";
import { arrayParam } from "./sql-util";

const DAY = 86_400_000;
const BATCH = 5000;

type Bucket = {
  gpu: number;
  bucket: number;
  n: number;
  u: number;
  uMax: number;
  m: number;
  p: number;
  t: number;
};

/**
 * Metrics for back-filled history. Thirty days of 10 s samples would be tens of millions of rows and minutes
 * of inserts on first start, so the provider's samples are aggregated here into the same 5-minute rollups the
 * worker's rollup job writes (count, avg, max per GPU and bucket), and raw samples are stored only for the
 * last `rawSampleHours`, where the 1 h – 24 h charts read them. The worker's ingest continues from the last
 * raw sample, so live data joins the history without a gap.
 */
export async function backfillMetrics(opts: {
  orgId: string;
  now: Date;
  windowStart: Date;
  rawSampleHours: number;
  provider: Provider;
}): Promise<{ rollupRows: number; rawSamples: number }> {
  const db = getDb();
  const now = opts.now.getTime();
  const rawFrom = now - opts.rawSampleHours * 3_600_000;
  const closedUntil = Math.floor(now / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  const intervals = await db.execute<{ instance_id: string; start_ms: number; end_ms: number | null }>(sql`
    select e.instance_id, (extract(epoch from e.at) * 1000)::float8 as start_ms,
      (select (extract(epoch from min(n.at)) * 1000)::float8 from instance_events n
        where n.instance_id = e.instance_id and (n.at, n.id) > (e.at, e.id)
          and n.to_state not in ('running', 'stopping', 'preempting')) as end_ms
    from instance_events e
    where e.org_id = ${opts.orgId} and e.to_state = 'running' and e.at < ${opts.now}
    order by e.instance_id, e.at`);
  const instances = new Map(
    (await loadProviderInstances(db, sql`i.org_id = ${opts.orgId}`)).map((i) => [i.id, i]),
  );

  let rollupRows = 0;
  let rawSamples = 0;
  let raw: Array<{ inst: { id: string; orgId: string }; s: MetricSample }> = [];
  let rollups: Array<Bucket & { instanceId: string; orgId: string }> = [];
  const flushRaw = async () => {
    rawSamples += await insertSamples(db, raw);
    raw = [];
  };
  const flushRollups = async () => {
    rollupRows += await insertRollups(db, rollups);
    rollups = [];
  };

  const byInstance = new Map<string, typeof intervals.rows>();
  for (const r of intervals.rows)
    byInstance.set(r.instance_id, [...(byInstance.get(r.instance_id) ?? []), r]);
  for (const [id, runs] of byInstance) {
    const inst = instances.get(id);
    if (!inst) continue;
    const buckets = new Map<number, Bucket>();
    for (const run of runs) {
      const runStart = Number(run.start_ms);
      const runEnd = Math.min(run.end_ms == null ? now : Number(run.end_ms), now);
      const running = { ...inst, startedAt: new Date(runStart) };
      // Day-sized windows keep memory flat; samples are pure functions of time, so the seams are invisible.
      for (let a = Math.max(runStart - 1, opts.windowStart.getTime()); a < runEnd; a += DAY) {
        for (const s of opts.provider.samples(running, new Date(a), new Date(Math.min(a + DAY, runEnd)))) {
          const at = s.at.getTime();
          if (at >= rawFrom) raw.push({ inst, s });
          const bucket = Math.floor(at / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
          if (bucket >= closedUntil) continue; // still open: the worker's rollup job closes it
          // Numeric keys (bucket number × 64 + GPU): this runs once per sample, millions of times.
          const key = (bucket / ROLLUP_BUCKET_MS) * 64 + s.gpuIndex;
          const b = buckets.get(key);
          if (b) {
            b.n++;
            b.u += s.utilizationPct;
            b.uMax = Math.max(b.uMax, s.utilizationPct);
            b.m += s.memoryUsedGib;
            b.p += s.powerWatts;
            b.t += s.temperatureC;
          } else {
            buckets.set(key, {
              gpu: s.gpuIndex,
              bucket,
              n: 1,
              u: s.utilizationPct,
              uMax: s.utilizationPct,
              m: s.memoryUsedGib,
              p: s.powerWatts,
              t: s.temperatureC,
            });
          }
        }
        if (raw.length >= BATCH) await flushRaw();
      }
    }
    for (const b of buckets.values()) {
      rollups.push({ ...b, instanceId: inst.id, orgId: inst.orgId });
      if (rollups.length >= BATCH) await flushRollups();
    }
  }
  await flushRaw();
  await flushRollups();
  // The chart levels over the whole history (the worker's job only reaches a day back).
  await rollupLevels(systemCtx("history"), {
    from: opts.windowStart,
    to: new Date(closedUntil),
    instanceIds: [...instances.keys()],
  });
  return { rollupRows, rawSamples };
}

async function insertRollups(exec: Executor, rows: Array<Bucket & { instanceId: string; orgId: string }>) {
  if (rows.length === 0) return 0;
  const res = await exec.execute(sql`
    insert into metric_rollups_5m
      (instance_id, gpu_index, bucket, org_id, samples, utilization_avg, utilization_max, memory_used_avg,
       power_avg, temperature_avg)
    select * from unnest(
      ${arrayParam(
        rows.map((r) => r.instanceId),
        "uuid[]",
      )},
      ${arrayParam(
        rows.map((r) => r.gpu),
        "int2[]",
      )},
      ${arrayParam(
        rows.map((r) => new Date(r.bucket).toISOString()),
        "timestamptz[]",
      )},
      ${arrayParam(
        rows.map((r) => r.orgId),
        "uuid[]",
      )},
      ${arrayParam(
        rows.map((r) => r.n),
        "int4[]",
      )},
      ${arrayParam(
        rows.map((r) => r.u / r.n),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.uMax),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.m / r.n),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.p / r.n),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.t / r.n),
        "real[]",
      )})
    on conflict do nothing`);
  return res.rowCount ?? 0;
}
