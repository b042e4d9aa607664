import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { simulatedProvider as sim } from "@/lib/provisioning/providers/simulated";
import type { MetricSample, ProviderInstance } from "@/lib/provisioning/providers/types";
import {
  CHART_RANGES,
  energyKwh,
  instanceLogs,
  MAX_POINTS,
  RANGE_SPECS,
  rollupMetrics,
  utilizationSeries,
} from "@/lib/telemetry";
import { insertSamples } from "@/lib/telemetry/ingest";
import { loadProviderInstances } from "@/lib/telemetry/provider-instances";
import { insertInstance, tenantWithCatalog } from "./fixtures";

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const T = new Date("2031-05-10T18:00:00Z");
const sys = systemCtx("series-test");

let tenant: Awaited<ReturnType<typeof tenantWithCatalog>>;
let pi: ProviderInstance;
let samples: MetricSample[];

/** JS reference of the SQL downsampling: mean per bin of `binSeconds`, per GPU or over all GPUs. */
function reference(xs: MetricSample[], binSeconds: number, from: number, pick: (s: MetricSample) => number) {
  const bins = new Map<number, number[]>();
  for (const s of xs) {
    if (s.at.getTime() < from || s.at.getTime() > T.getTime()) continue;
    const b = Math.floor(s.at.getTime() / (binSeconds * 1000)) * binSeconds * 1000;
    bins.set(b, [...(bins.get(b) ?? []), pick(s)]);
  }
  return new Map([...bins].map(([b, v]) => [b, v.reduce((a, c) => a + c, 0) / v.length]));
}

beforeAll(async () => {
  tenant = await tenantWithCatalog("series");
  // Two days of a 2-GPU inference service: raw samples for the whole span, rolled up into 5-minute buckets.
  const start = new Date(T.getTime() - 2 * DAY);
  const inst = await insertInstance(tenant, {
    createdAt: start,
    startedAt: start,
    workload: "inference",
    simSeed: 777,
  });
  const [loaded] = await loadProviderInstances(getDb(), sql`i.id = ${inst.id}`);
  pi = loaded as ProviderInstance;
  samples = sim.samples(pi, start, T);
  for (let k = 0; k < samples.length; k += 5000) {
    await insertSamples(
      getDb(),
      samples.slice(k, k + 5000).map((s) => ({ inst: pi, s })),
    );
  }
  await rollupMetrics(sys, { now: T, lookbackMs: 3 * DAY });
});

describe("utilizationSeries", () => {
  it("returns at most ~600 points per series for every range, per GPU and averaged", async () => {
    for (const range of CHART_RANGES) {
      const s = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
        range,
        metric: "utilization",
        now: T,
      });
      expect(s.gpus).toHaveLength(2);
      for (const series of [...s.gpus.map((g) => g.points), s.average]) {
        expect(series.length).toBeLessThanOrEqual(MAX_POINTS);
        expect(series.length).toBeGreaterThan(300);
      }
      expect(s.source).toBe(RANGE_SPECS[range].source);
      expect(s.average.some((p) => p.v !== null)).toBe(true);
    }
  });

  it("matches a JS reference of the raw samples (6 h from the 1-minute level, per GPU and average)", async () => {
    const s = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
      range: "6h",
      metric: "power",
      now: T,
    });
    const from = T.getTime() - 6 * H;
    const ref0 = reference(
      samples.filter((x) => x.gpuIndex === 0),
      RANGE_SPECS["6h"].binSeconds,
      from,
      (x) => x.powerWatts,
    );
    const refAvg = reference(samples, RANGE_SPECS["6h"].binSeconds, from, (x) => x.powerWatts);
    const g0 = s.gpus[0]?.points ?? [];
    expect(g0.filter((p) => p.v !== null).length).toBe(ref0.size);
    for (const p of g0) if (p.v !== null) expect(p.v).toBeCloseTo(ref0.get(p.t) as number, 1);
    for (const p of s.average) if (p.v !== null) expect(p.v).toBeCloseTo(refAvg.get(p.t) as number, 1);
    expect(s.unit).toBe("W");
    expect(s.yMax).toBe(700);
  });

  it("a step sets the bin width (coarser than the range's own), matching the JS reference", async () => {
    const s = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
      range: "6h",
      metric: "power",
      step: "600",
      now: T,
    });
    expect(s.binSeconds).toBe(600);
    expect(s.average.length).toBe(37); // 6 h of 10-minute bins, plus the partial one at the edge
    const ref = reference(samples, 600, T.getTime() - 6 * H, (x) => x.powerWatts);
    for (const p of s.average) if (p.v !== null) expect(p.v).toBeCloseTo(ref.get(p.t) as number, 1);
    expect(s.average.filter((p) => p.v !== null).length).toBe(ref.size);
    // The 7-day range reads the 20-minute level: a multiple of 20 minutes.
    const week = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
      range: "7d",
      step: 3600,
      now: T,
    });
    expect(week.binSeconds).toBe(3600);
    expect(week.average.length).toBe(169);
  });

  it("refuses a step finer than the range's own, longer than the range or off the source resolution", async () => {
    for (const [range, step] of [
      ["6h", 30],
      ["6h", 45],
      ["1h", 7200],
      ["7d", 1500 + 60],
      ["1h", "soon"],
      ["1h", 0],
    ] as const) {
      const err = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, { range, step, now: T }).catch(
        (e: unknown) => e,
      );
      expect(err, `${range} ${step}`).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fieldErrors)).toEqual(["step"]);
    }
    const err = (await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
      range: "6h",
      step: 45,
      now: T,
    }).catch((e: unknown) => e)) as ValidationError;
    expect(err.fieldErrors.step).toEqual([
      "For this range the step is a multiple of 60 seconds from 60 to 21600",
    ]);
  });

  it("reads long ranges from the rollups, weighting buckets by their sample counts", async () => {
    const s = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, {
      range: "7d",
      metric: "utilization",
      now: T,
    });
    const from = T.getTime() - 7 * DAY;
    // Buckets are included by their start time, so the reference keeps whole buckets starting in the window.
    const bucketed = samples.filter((x) => Math.floor(x.at.getTime() / (20 * MIN)) * 20 * MIN >= from);
    const ref = reference(bucketed, 1200, from, (x) => x.utilizationPct);
    const withData = s.average.filter((p) => p.v !== null);
    // The bucket [T, T+20 min) is open and not rolled up yet: its sample at T comes from the raw samples.
    expect(withData.length).toBe(ref.size);
    expect(withData.at(-1)?.t).toBe(T.getTime());
    for (const p of withData) expect(p.v).toBeCloseTo(ref.get(p.t) as number, 1);
    // Days of data in a 7-day window: the earlier bins are gaps (null), not zeros.
    expect(s.average[0]?.v).toBeNull();
    expect(s.summary.peak).toBeGreaterThan(s.summary.mean as number);
  });

  it("refuses another organization's instance, bad ids and bad ranges", async () => {
    const other = await tenantWithCatalog("series-other");
    await expect(
      utilizationSeries(other.ctx, other.org.slug, pi.id, { range: "1h", metric: "utilization", now: T }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      utilizationSeries(other.ctx, tenant.org.slug, pi.id, { range: "1h", metric: "utilization", now: T }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      utilizationSeries(tenant.ctx, tenant.org.slug, "not-a-uuid", { range: "1h", metric: "utilization" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, { range: "2y" as "1h", metric: "utilization" }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("instanceLogs", () => {
  it("reads the provider's logs of the org's own instance, and 404s for another org", async () => {
    const logs = await instanceLogs(tenant.ctx, tenant.org.slug, pi.id, { limit: 50, now: T, provider: sim });
    expect(logs.live).toBe(true);
    expect(logs.lines).toHaveLength(50);
    expect(logs.lines.some((l) => l.text.includes("/v1/completions"))).toBe(true);
    const since = logs.lines.at(-5)?.at as string;
    const tail = await instanceLogs(tenant.ctx, tenant.org.slug, pi.id, {
      since,
      limit: 50,
      now: T,
      provider: sim,
    });
    expect(tail.lines).toEqual(logs.lines.slice(-4));
    const other = await tenantWithCatalog("logs-other");
    await expect(instanceLogs(other.ctx, tenant.org.slug, pi.id, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(instanceLogs(tenant.ctx, tenant.org.slug, pi.id, { limit: 0 })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it("has no lines for an instance that never ran", async () => {
    const queued = await insertInstance(tenant, { state: "queued", createdAt: T });
    expect(await instanceLogs(tenant.ctx, tenant.org.slug, queued.id, { provider: sim })).toEqual({
      lines: [],
      live: false,
    });
  });
});

describe("energyKwh", () => {
  it("integrates measured power: rollups inside the window plus raw samples at its edges", async () => {
    const from = new Date(T.getTime() - 30 * H - 123_000); // not on a bucket boundary
    const to = new Date(T.getTime() - 2 * MIN);
    const expected =
      samples.filter((s) => s.at >= from && s.at < to).reduce((a, s) => a + s.powerWatts, 0) *
      (10 / 3_600_000);
    const kwh = await energyKwh({}, pi.id, from, to);
    expect(kwh).toBeGreaterThan(0);
    expect(Math.abs(kwh - expected) / expected).toBeLessThan(1e-5);
  });
});
