import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { simulatedProvider as sim } from "@/lib/provisioning/providers/simulated";
import type { MetricSample, ProviderInstance } from "@/lib/provisioning/providers/types";
import { ingestMetrics, MAX_CATCH_UP_MS, rollupMetrics } from "@/lib/telemetry";
import { insertSamples } from "@/lib/telemetry/ingest";
import { loadProviderInstances } from "@/lib/telemetry/provider-instances";
import { countSamples, insertInstance, tenantWithCatalog } from "./fixtures";

const MIN = 60_000;
const H = 60 * MIN;
const T = new Date("2031-03-04T12:00:00Z");
const sys = systemCtx("telemetry-test");

async function providerInstance(id: string): Promise<ProviderInstance> {
  const [inst] = await loadProviderInstances(getDb(), sql`i.id = ${id}`);
  if (!inst) throw new Error("instance not found");
  return inst;
}

/** What the rollup should hold for one GPU, computed in JS from the provider's samples. */
function handRollup(samples: MetricSample[], gpu: number) {
  const by = new Map<number, MetricSample[]>();
  for (const s of samples.filter((x) => x.gpuIndex === gpu)) {
    const b = Math.floor(s.at.getTime() / (5 * MIN)) * 5 * MIN;
    by.set(b, [...(by.get(b) ?? []), s]);
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return [...by.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bucket, xs]) => ({
      bucket,
      samples: xs.length,
      utilizationAvg: avg(xs.map((x) => x.utilizationPct)),
      utilizationMax: Math.max(...xs.map((x) => x.utilizationPct)),
      memoryUsedAvg: avg(xs.map((x) => x.memoryUsedGib)),
      powerAvg: avg(xs.map((x) => x.powerWatts)),
      temperatureAvg: avg(xs.map((x) => x.temperatureC)),
    }));
}

describe("metrics ingest", () => {
  let tenant: Awaited<ReturnType<typeof tenantWithCatalog>>;
  beforeAll(async () => {
    tenant = await tenantWithCatalog("ingest");
  });

  it("stores the provider's samples since the last one, bounded, and is idempotent under concurrent runs", async () => {
    const inst = await insertInstance(tenant, {
      createdAt: new Date(T.getTime() - 2 * H),
      startedAt: new Date(T.getTime() - H),
    });
    await ingestMetrics(sys, { now: T, provider: sim });
    // Started an hour ago, but the first ingest only reaches back MAX_CATCH_UP_MS (15 min = 90 ticks × 2 GPUs).
    expect(await countSamples(inst.id)).toBe((MAX_CATCH_UP_MS / 10_000) * 2);
    await ingestMetrics(sys, { now: T, provider: sim });
    expect(await countSamples(inst.id)).toBe(180);

    const later = new Date(T.getTime() + 5 * MIN);
    await Promise.all([
      ingestMetrics(sys, { now: later, provider: sim }),
      ingestMetrics(sys, { now: later, provider: sim }),
    ]);
    expect(await countSamples(inst.id)).toBe(180 + 30 * 2);

    const stored = await getDb().execute<{
      gpu_index: number;
      at: string;
      utilization_pct: number;
      power_watts: number;
    }>(
      sql`select gpu_index, at, utilization_pct, power_watts from metric_samples where instance_id = ${inst.id}
          order by gpu_index, at`,
    );
    const expected = sim
      .samples(await providerInstance(inst.id), new Date(T.getTime() - MAX_CATCH_UP_MS), later)
      .sort((a, b) => a.gpuIndex - b.gpuIndex || a.at.getTime() - b.at.getTime());
    expect(stored.rows.map((r) => Number(r.utilization_pct))).toEqual(expected.map((s) => s.utilizationPct));
    expect(stored.rows.map((r) => new Date(r.at).getTime())).toEqual(expected.map((s) => s.at.getTime()));
  });

  it("ignores instances that are not running", async () => {
    const stopped = await insertInstance(tenant, {
      state: "stopped",
      createdAt: new Date(T.getTime() - 2 * H),
      startedAt: new Date(T.getTime() - H),
    });
    const queued = await insertInstance(tenant, { state: "queued", createdAt: new Date(T.getTime() - H) });
    await ingestMetrics(sys, { now: T, provider: sim });
    expect(await countSamples(stopped.id)).toBe(0);
    expect(await countSamples(queued.id)).toBe(0);
  });
});

describe("5-minute rollups", () => {
  it("equal a hand-computed aggregate of the samples, cover only closed buckets, and are idempotent", async () => {
    const tenant = await tenantWithCatalog("rollup");
    const start = new Date(T.getTime() - H + 12_345);
    const inst = await insertInstance(tenant, {
      createdAt: start,
      startedAt: start,
      workload: "notebook",
      kind: "notebook",
    });
    const pi = await providerInstance(inst.id);
    const now = new Date(T.getTime() + 2 * MIN); // the bucket [T, T+5min) is still open
    const samples = sim.samples(pi, new Date(start.getTime() - 1), now);
    await insertSamples(
      getDb(),
      samples.map((s) => ({ inst: pi, s })),
    );

    await rollupMetrics(sys, { now });
    const rows = await getDb().execute<{
      gpu_index: number;
      bucket: string;
      samples: number;
      utilization_avg: number;
      utilization_max: number;
      memory_used_avg: number;
      power_avg: number;
      temperature_avg: number;
    }>(sql`select * from metric_rollups_5m where instance_id = ${inst.id} order by gpu_index, bucket`);
    const expected = [0, 1].flatMap((g) =>
      handRollup(samples, g).filter((b) => b.bucket + 5 * MIN <= now.getTime()),
    );
    expect(rows.rows.length).toBe(expected.length);
    expect(rows.rows.length).toBe(2 * 12); // a partial first bucket + 11 full ones per GPU, open bucket left out
    const close = (a: number, b: number) =>
      expect(Math.abs(Number(a) - b)).toBeLessThan(Math.max(1e-3, Math.abs(b) * 1e-5));
    rows.rows.forEach((r, k) => {
      const e = expected[k] as (typeof expected)[number];
      expect(new Date(r.bucket).getTime()).toBe(e.bucket);
      expect(Number(r.samples)).toBe(e.samples);
      close(r.utilization_avg, e.utilizationAvg);
      close(r.utilization_max, e.utilizationMax);
      close(r.memory_used_avg, e.memoryUsedAvg);
      close(r.power_avg, e.powerAvg);
      close(r.temperature_avg, e.temperatureAvg);
    });
    expect(rows.rows[0]?.samples).toBeLessThan(30);

    const again = await rollupMetrics(sys, { now });
    const rowsAgain = await getDb().execute(
      sql`select * from metric_rollups_5m where instance_id = ${inst.id} order by gpu_index, bucket`,
    );
    expect(rowsAgain.rows).toEqual(rows.rows);
    expect(again.buckets).toBe(0);

    // Once the open bucket closes, the next run adds it.
    await rollupMetrics(sys, { now: new Date(T.getTime() + 5 * MIN) });
    const after = await getDb().execute(sql`select 1 from metric_rollups_5m where instance_id = ${inst.id}`);
    expect(after.rows.length).toBe(2 * 13);
  });
});

describe("rollup watermark", () => {
  it("catches up after an outage of hours and still counts samples that arrived late", async () => {
    const tenant = await tenantWithCatalog("rollup-late");
    const start = new Date(T.getTime() - 4 * H);
    const inst = await insertInstance(tenant, {
      createdAt: start,
      startedAt: start,
      gpuCount: 1,
      instanceTypeId: "h100.1x",
    });
    const pi = await providerInstance(inst.id);
    const all = sim.samples(pi, start, T);
    const lateFrom = T.getTime() - 12 * MIN;
    // Four hours of samples, except the last twelve minutes, which the ingest has not written yet.
    await insertSamples(
      getDb(),
      all.filter((s) => s.at.getTime() < lateFrom).map((s) => ({ inst: pi, s })),
    );
    await rollupMetrics(sys, { now: T });
    const buckets = async () =>
      getDb().execute<{ bucket: string; samples: number }>(
        sql`select bucket, samples from metric_rollups_5m where instance_id = ${inst.id} order by bucket`,
      );
    const first = await buckets();
    // No rollup job ran for four hours: all closed buckets now, but the last two have no samples yet.
    expect(first.rows.length).toBe(4 * 12 - 2);
    expect(Number(first.rows.at(-1)?.samples)).toBe(18); // [T-15 min, T-10 min) holds samples up to T-12 min
    await insertSamples(
      getDb(),
      all.filter((s) => s.at.getTime() >= lateFrom).map((s) => ({ inst: pi, s })),
    );
    await rollupMetrics(sys, { now: T });
    const second = await buckets();
    // Every bucket is whole now (the first misses the start instant itself), the late ones included.
    expect(second.rows.slice(1).every((r) => Number(r.samples) === 30)).toBe(true);
    expect(second.rows.length).toBe(48);
  });
});
