import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { simulatedProvider as sim } from "@/lib/provisioning/providers/simulated";
import type { ProviderInstance } from "@/lib/provisioning/providers/types";
import { CHART_RANGES, RANGE_SPECS, ROLLUP_LEVELS, rollupMetrics, utilizationSeries } from "@/lib/telemetry";
import { insertSamples } from "@/lib/telemetry/ingest";
import { loadProviderInstances } from "@/lib/telemetry/provider-instances";
import { MIN_POINTS, SOURCE_LEVELS } from "@/lib/telemetry/ranges";
import { insertInstance, tenantWithCatalog } from "./fixtures";

const H = 3_600_000;
const DAY = 24 * H;
// Its own clock: no other file's instance has samples this late.
const T = new Date("2032-03-01T12:00:00Z");
const sys = systemCtx("rollup-levels-test");

let tenant: Awaited<ReturnType<typeof tenantWithCatalog>>;
let pi: ProviderInstance;

type Cmp = {
  level_s: number;
  buckets: number;
  bad_count: number;
  d_avg: number;
  d_max: number;
  d_power: number;
};

/** Every level bucket of the instance against the same aggregate computed straight from the raw samples. */
async function compareWithRaw(instanceId: string): Promise<Cmp[]> {
  const res = await getDb().execute<Cmp>(sql`
    select l.level_s, count(*)::int as buckets, count(*) filter (where l.samples <> a.n)::int as bad_count,
      max(abs(l.utilization_avg - a.ua))::float8 as d_avg, max(abs(l.utilization_max - a.um))::float8 as d_max,
      max(abs(l.power_avg - a.pa))::float8 as d_power
    from (
      select l.level_s, l.bucket, l.instance_id, x.gpu_index, x.samples, x.utilization_avg, x.utilization_max,
        x.power_avg
      from metric_chart_levels l
      cross join lateral unnest(l.gpus, l.samples, l.utilization_avg, l.utilization_max, l.power_avg)
        as x(gpu_index, samples, utilization_avg, utilization_max, power_avg)
    ) l
    cross join lateral (
      select count(*)::int as n, avg(m.utilization_pct) as ua, max(m.utilization_pct) as um, avg(m.power_watts) as pa
      from metric_samples m
      where m.instance_id = l.instance_id and m.gpu_index = l.gpu_index and m.at >= l.bucket
        and m.at < l.bucket + make_interval(secs => l.level_s) and m.at < ${T}
    ) a
    where l.instance_id = ${instanceId}
    group by l.level_s order by l.level_s`);
  return res.rows.map((r) => ({ ...r, level_s: Number(r.level_s) }));
}

type Totals = {
  level_s: number;
  rows: number;
  bad_n: number;
  bad_peak: number;
  d_sum: number;
  bad_exact: number;
};

/**
 * Every level row's all-GPU columns against the raw samples of its bucket (count, per metric the sum and the
 * utilization peak; the other peaks against the row's avg arrays) and the weighted sum against the float8
 * operations a chart made on the row's arrays (exactly).
 */
async function totalsAgainstRaw(instanceId: string, before: Date): Promise<Totals[]> {
  const res = await getDb().execute<Totals>(sql`
    select l.level_s, count(*)::int as rows, count(*) filter (where l.samples_total <> a.n)::int as bad_n,
      count(*) filter (where l.utilization_peak <> a.um or l.memory_used_peak <> w.mp or l.power_peak <> w.pp
        or l.temperature_peak <> w.tp)::int as bad_peak,
      max(greatest(abs(l.utilization_wsum - a.us) / a.us, abs(l.memory_used_wsum - a.ms) / a.ms,
        abs(l.power_wsum - a.ps) / a.ps, abs(l.temperature_wsum - a.ts) / a.ts))::float8 as d_sum,
      count(*) filter (where l.utilization_wsum <> w.u or l.power_wsum <> w.p)::int as bad_exact
    from metric_chart_levels l
    cross join lateral (
      select count(*)::int as n, sum(m.utilization_pct::float8) as us, max(m.utilization_pct) as um,
        sum(m.memory_used_gib::float8) as ms, sum(m.power_watts::float8) as ps, sum(m.temperature_c::float8) as ts
      from metric_samples m
      where m.instance_id = l.instance_id and m.gpu_index = any(l.gpus) and m.at >= l.bucket
        and m.at < l.bucket + make_interval(secs => l.level_s) and m.at < ${before}
    ) a
    cross join lateral (
      select sum(x.ua::float8 * x.n order by x.k) as u, sum(x.pa::float8 * x.n order by x.k) as p, max(x.ma) as mp,
        max(x.pa) as pp, max(x.ta) as tp
      from unnest(l.samples, l.utilization_avg, l.memory_used_avg, l.power_avg, l.temperature_avg)
        with ordinality as x(n, ua, ma, pa, ta, k)
    ) w
    where l.instance_id = ${instanceId}
    group by l.level_s order by l.level_s`);
  return res.rows.map((r) => ({ ...r, level_s: Number(r.level_s) }));
}

function expectTotalsOfRaw(totals: Totals[]) {
  expect(totals.map((c) => c.level_s)).toEqual(ROLLUP_LEVELS.map((l) => l.seconds));
  for (const c of totals) {
    expect(c.rows, `level ${c.level_s}`).toBeGreaterThan(0);
    expect(c, `level ${c.level_s}`).toMatchObject({ bad_n: 0, bad_peak: 0, bad_exact: 0 });
    // The sums of reals rounded per GPU and bucket (and per 5 minutes below the 20-minute level).
    expect(c.d_sum, `level ${c.level_s}`).toBeLessThan(1e-5);
  }
}

/** The (GPU, bucket) pairs of a level width that hold raw samples before T. */
async function rawBins(instanceId: string, levelS: number): Promise<number> {
  const res = await getDb().execute<{ n: number }>(sql`
    select count(distinct (gpu_index, date_bin(make_interval(secs => ${levelS}), at, timestamptz 'epoch')))::int as n
    from metric_samples where instance_id = ${instanceId} and at < ${T}`);
  return Number(res.rows[0]?.n);
}

beforeAll(async () => {
  tenant = await tenantWithCatalog("levels");
  const start = new Date(T.getTime() - 2 * DAY);
  const inst = await insertInstance(tenant, { createdAt: start, startedAt: start, simSeed: 4242 });
  const [loaded] = await loadProviderInstances(getDb(), sql`i.id = ${inst.id}`);
  pi = loaded as ProviderInstance;
  const samples = sim.samples(pi, start, T);
  for (let k = 0; k < samples.length; k += 5000) {
    await insertSamples(
      getDb(),
      samples.slice(k, k + 5000).map((s) => ({ inst: pi, s })),
    );
  }
  await rollupMetrics(sys, { now: T, lookbackMs: 3 * DAY });
});

describe("rollup levels", () => {
  it("hold per bucket the count, mean and peak of the raw samples (the values the charts draw)", async () => {
    const cmp = await compareWithRaw(pi.id);
    expect(cmp.map((c) => c.level_s)).toEqual(ROLLUP_LEVELS.map((l) => l.seconds));
    for (const c of cmp) {
      // Two days on each of the instance's GPUs, in whole buckets (a 10 s bin the simulator left empty has none).
      expect(c.buckets, `level ${c.level_s}`).toBe(await rawBins(pi.id, c.level_s));
      expect(c.bad_count).toBe(0);
      expect(c.d_avg).toBeLessThan(1e-3);
      expect(c.d_max).toBe(0);
      expect(c.d_power).toBeLessThan(1e-2);
    }
  });

  it("hold per row the all-GPU sample count, weighted sums and peaks of the raw samples", async () => {
    expectTotalsOfRaw(await totalsAgainstRaw(pi.id, T));
  });

  it("are idempotent on re-run and survive the pruning of the raw samples", async () => {
    const before = await getDb().execute(
      sql`select * from metric_chart_levels where instance_id = ${pi.id} and level_s > 10 order by level_s, bucket`,
    );
    // Just before T: the sample at T itself is raw-only (the levels stop at the job's last whole minute).
    const weekNow = new Date(T.getTime() - 1000);
    const week = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, { range: "7d", now: weekNow });
    const again = await rollupMetrics(sys, { now: T, lookbackMs: 3 * DAY });
    expect(again.levelBuckets).toBe(0);
    // What pruneRawSamples does to an old instance (here only to this one: the job is fleet-wide).
    await getDb().execute(sql`delete from metric_samples where instance_id = ${pi.id}`);
    await rollupMetrics(sys, { now: T, lookbackMs: 3 * DAY });
    const after = await getDb().execute(
      sql`select * from metric_chart_levels where instance_id = ${pi.id} and level_s > 10 order by level_s, bucket`,
    );
    expect(after.rows).toEqual(before.rows);
    expect(
      await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, { range: "7d", now: weekNow }),
    ).toEqual(week);
    // Without the finer levels either (the 1-minute level reaches back only as far as raw samples did), the
    // newest 20-minute bucket is read from its own level instead of being left out.
    await getDb().execute(
      sql`delete from metric_chart_levels where instance_id = ${pi.id} and level_s in (10, 60)`,
    );
    const coarse = await utilizationSeries(tenant.ctx, tenant.org.slug, pi.id, { range: "7d", now: weekNow });
    expect(coarse.average.filter((p) => p.v !== null).length).toBe(
      week.average.filter((p) => p.v !== null).length,
    );
    for (const [k, p] of coarse.average.entries())
      if (p.v !== null) expect(Math.abs(p.v - (week.average[k]?.v as number))).toBeLessThan(0.011);
  });
});

describe("a level bucket that grows", () => {
  it("gets its all-GPU columns recomputed with its arrays when late samples arrive", async () => {
    // Two GPUs from 11:00; the first run sees samples up to 12:05, the late ones (12:05-12:10) land in the same
    // 20-minute and 1-hour buckets, which the second run recomputes (ON CONFLICT DO UPDATE).
    const at = new Date("2032-03-05T12:10:00Z");
    const start = new Date(at.getTime() - 70 * 60_000);
    const inst = await insertInstance(tenant, { createdAt: start, startedAt: start });
    const insert = (from: Date, to: Date) =>
      getDb().execute(sql`
        insert into metric_samples (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib,
          power_watts, temperature_c)
        select ${inst.id}, g, t, ${tenant.org.id}, u, u * 0.7, 120 + u * 5.8, 35 + u * 0.45
        from generate_series(0, 1) g
        cross join generate_series(${from}::timestamptz, ${to}::timestamptz - interval '10 seconds',
          interval '10 seconds') t
        cross join lateral (select (50 + 40 * sin(extract(epoch from t) / 300.0 + g))::real as u) v`);
    await insert(start, new Date(at.getTime() - 5 * 60_000));
    await rollupMetrics(sys, { now: at, lookbackMs: 2 * H });
    await insert(new Date(at.getTime() - 5 * 60_000), at);
    const rerun = await rollupMetrics(sys, { now: at, lookbackMs: 2 * H });
    expect(rerun.levelBuckets).toBeGreaterThan(0);
    expectTotalsOfRaw(await totalsAgainstRaw(inst.id, at));
  });
});

describe("a GPU with 5-minute history but no levels yet", () => {
  it("gets its 20-minute and 1-hour levels over the last 30 days on the first run", async () => {
    const start = new Date(T.getTime() - 12 * DAY);
    const inst = await insertInstance(tenant, { createdAt: start, startedAt: start });
    await getDb().execute(sql`
      insert into metric_rollups_5m (instance_id, gpu_index, bucket, org_id, samples, utilization_avg,
        utilization_max, memory_used_avg, power_avg, temperature_avg)
      select ${inst.id}, g, ${start}::timestamptz + make_interval(mins => k * 5), ${tenant.org.id}, 30, 40, 70, 10,
        300, 60
      from generate_series(0, ${inst.gpuCount - 1}) g cross join generate_series(0, 12 * 288 - 1) k`);
    await rollupMetrics(sys, { now: T });
    const rows = await getDb().execute<{ level_s: number; n: number }>(sql`
      select level_s, count(*)::int as n from metric_chart_levels
      where instance_id = ${inst.id} and 0 = any(gpus) group by level_s order by level_s`);
    expect(rows.rows.map((r) => [Number(r.level_s), Number(r.n)])).toEqual([
      [1200, 12 * 72],
      [3600, 12 * 24],
    ]);
  });
});

describe("the 1-minute level", () => {
  it("follows the raw samples to the last whole minute, not the last closed 5-minute bucket", async () => {
    await getDb().execute(sql`
      insert into metric_samples (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts,
        temperature_c)
      select ${pi.id}, 0, ${T}::timestamptz + make_interval(secs => k * 10), ${tenant.org.id}, 50, 10, 300, 60
      from generate_series(1, 17) k`);
    await rollupMetrics(sys, { now: new Date(T.getTime() + 3 * 60_000 + 5_000) });
    const rows = await getDb().execute<{ n: number }>(sql`
      select count(*)::int as n from metric_chart_levels
      where instance_id = ${pi.id} and level_s = 60 and bucket >= ${T}`);
    expect(Number(rows.rows[0]?.n)).toBe(3);
  });
});

describe("chart ranges", () => {
  it("read the coarsest level that still gives more than MIN_POINTS points", () => {
    expect(Object.fromEntries(CHART_RANGES.map((r) => [r, RANGE_SPECS[r].level]))).toEqual({
      "1h": 10,
      "6h": 60,
      "24h": 60,
      "7d": 1200,
      "30d": 3600,
    });
    for (const r of CHART_RANGES) {
      const { seconds, level } = RANGE_SPECS[r];
      expect(seconds / level).toBeGreaterThan(MIN_POINTS);
      const coarser = SOURCE_LEVELS.find((l) => l > level);
      if (coarser !== undefined) expect(seconds / coarser).toBeLessThanOrEqual(MIN_POINTS);
    }
  });

  it("read one level row per bucket, so a full window stays under MAX_ROWS whatever the GPU count", () => {
    for (const r of CHART_RANGES) {
      const { seconds, level } = RANGE_SPECS[r];
      // A full window holds seconds / level buckets, +1 at the edge; the edge tails are measured in chart-rows.
      expect(seconds / level + 1, r).toBeLessThanOrEqual(1441);
    }
  });
});
