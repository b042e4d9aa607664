import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  CHART_RANGES,
  type ChartRange,
  RANGE_SPECS,
  rollupMetrics,
  utilizationSeries,
} from "@/lib/telemetry";
import { MAX_ROWS } from "@/lib/telemetry/ranges";
import { CHART_COLUMNS } from "@/lib/telemetry/series";
import { type ChartRow, chartQuery, rowsRead } from "@/lib/telemetry/series-sql";
import { insertInstance, tenantWithCatalog } from "./fixtures";

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
// Its own clock: no other file's instance has samples this late. The rollup job last ran at T + 3 min; raw
// samples reach NOW, so the newest edge of every chart is only in the raw samples.
const T = new Date("2033-07-01T12:00:00Z");
const JOB = new Date(T.getTime() + 3 * MIN);
const NOW = new Date(T.getTime() + 3 * MIN + 25_000);
const GPU_COUNTS = [1, 2, 4, 8] as const;
const sys = systemCtx("chart-rows-test");

let tenant: Awaited<ReturnType<typeof tenantWithCatalog>>;
const ids = new Map<number, string>();
let gappyId: string;
let tieId: string;

beforeAll(async () => {
  tenant = await tenantWithCatalog("chart-rows");
  const start = new Date(T.getTime() - 31 * DAY);
  for (const gpus of GPU_COUNTS) {
    const inst = await insertInstance(tenant, { createdAt: start, startedAt: start, gpuCount: gpus });
    ids.set(gpus, inst.id);
    // 31 days: a sample every 5 minutes until the last 25 hours, every 10 s after (as many rows as the raw
    // downsampling can still be computed from in a test, and every level of every range filled).
    await getDb().execute(sql`
      insert into metric_samples
        (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
      select ${inst.id}, g, t, ${tenant.org.id}, u, u * 0.7, 120 + u * 5.8, 35 + u * 0.45
      from generate_series(0, ${gpus - 1}) g
      cross join (
        select generate_series(${start}::timestamptz, ${T}::timestamptz - interval '25 hours', interval '5 minutes')
        union all
        select generate_series(${T}::timestamptz - interval '25 hours' + interval '10 seconds', ${NOW}::timestamptz,
          interval '10 seconds')
      ) ts(t)
      cross join lateral (
        select (50 + 45 * sin(extract(epoch from t) / 3000.0 + g * 1.7) * cos(extract(epoch from t) / 97.0))::real as u
      ) v`);
  }
  // Three GPUs of which GPU 1 reports only in even hours: its level rows in odd hours hold GPUs 0 and 2 only.
  const gappy = await insertInstance(tenant, { createdAt: start, startedAt: start, gpuCount: 3 });
  gappyId = gappy.id;
  await getDb().execute(sql`
    insert into metric_samples
      (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
    select ${gappy.id}, g, t, ${tenant.org.id}, u, u * 0.7, 120 + u * 5.8, 35 + u * 0.45
    from generate_series(0, 2) g
    cross join (
      select generate_series(${T}::timestamptz - interval '8 days', ${T}::timestamptz - interval '25 hours',
        interval '5 minutes')
      union all
      select generate_series(${T}::timestamptz - interval '25 hours' + interval '10 seconds', ${NOW}::timestamptz,
        interval '10 seconds')
    ) ts(t)
    cross join lateral (select (30 + g * 20 + 10 * sin(extract(epoch from t) / 700.0))::real as u) v
    where g <> 1 or extract(hour from t at time zone 'UTC')::int % 2 = 0`);
  // Two GPUs at a constant 42.675::real (42.67499923706055, drawn 42.67), whose shortest text as a real is
  // "42.675" (which would round to 42.68): what a reader of the reals must recover exactly.
  const tie = await insertInstance(tenant, { createdAt: start, startedAt: start, gpuCount: 2 });
  tieId = tie.id;
  await getDb().execute(sql`
    insert into metric_samples
      (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
    select ${tie.id}, g, t, ${tenant.org.id}, 42.675::real, 10, 200, 50
    from generate_series(0, 1) g
    cross join generate_series(${T}::timestamptz - interval '8 days', ${NOW}::timestamptz, interval '5 minutes') t`);
  await rollupMetrics(sys, { now: JOB, lookbackMs: 32 * DAY });
});

type Ref = { gpu: number | null; t: number; v: number };

/** The same downsampling straight over the raw samples: whole level buckets from `from` on, up to now. */
async function rawReference(id: string, range: ChartRange): Promise<Ref[]> {
  const { level, binSeconds, seconds } = RANGE_SPECS[range];
  const from = new Date(NOW.getTime() - seconds * 1000);
  const res = await getDb().execute<{ gpu: number | null; t: number; v: number }>(sql`
    select gpu_index as gpu, (extract(epoch from date_bin(make_interval(secs => ${binSeconds}), at,
      timestamptz 'epoch')) * 1000)::float8 as t, avg(utilization_pct)::float8 as v
    from metric_samples
    where instance_id = ${id} and at <= ${NOW}
      and date_bin(make_interval(secs => ${level}), at, timestamptz 'epoch') >= ${from}
    group by grouping sets ((1, 2), (2))`);
  return res.rows.map((r) => ({
    gpu: r.gpu === null ? null : Number(r.gpu),
    t: Number(r.t),
    v: Number(r.v),
  }));
}

describe("chart reads", () => {
  it("read at most MAX_ROWS table rows for every range up to 30 days, for 1 to 8 GPUs (EXPLAIN ANALYZE)", async () => {
    expect(MAX_ROWS).toBe(2000);
    const read: Record<string, number> = {};
    for (const gpus of GPU_COUNTS) {
      for (const range of CHART_RANGES) {
        const { level, binSeconds, seconds } = RANGE_SPECS[range];
        const q = chartQuery({
          instanceId: ids.get(gpus) as string,
          gpuCount: gpus,
          orgId: tenant.org.id,
          col: CHART_COLUMNS.utilization,
          level,
          binSeconds,
          from: new Date(NOW.getTime() - seconds * 1000),
          to: NOW,
        });
        const plan = await getDb().execute<{ "QUERY PLAN": Array<{ Plan: Parameters<typeof rowsRead>[0] }> }>(
          sql`explain (analyze, format json) ${q}`,
        );
        const root = plan.rows[0]?.["QUERY PLAN"][0]?.Plan;
        read[`${gpus} GPU ${range}`] = rowsRead(root as Parameters<typeof rowsRead>[0]);
      }
    }
    for (const [k, n] of Object.entries(read)) expect(n, k).toBeLessThanOrEqual(MAX_ROWS);
    // The window is full: the 24 h chart of 8 GPUs reads its 1,440 one-minute rows (not 8 × 1,440) and a tail.
    expect(read["8 GPU 24h"]).toBeGreaterThanOrEqual(1440);
  });

  it("equal the same downsampling over raw samples, per GPU and averaged, up to the newest sample", async () => {
    for (const gpus of GPU_COUNTS) {
      const id = ids.get(gpus) as string;
      for (const range of CHART_RANGES) {
        const s = await utilizationSeries(tenant.ctx, tenant.org.slug, id, { range, now: NOW });
        const ref = await rawReference(id, range);
        const at = (gpu: number | null, t: number) => ref.find((r) => r.gpu === gpu && r.t === t)?.v;
        const label = `${gpus} GPU ${range}`;
        const drawn = s.average.filter((p) => p.v !== null);
        expect(drawn.length, label).toBe(ref.filter((r) => r.gpu === null).length);
        for (const p of drawn)
          expect(Math.abs((p.v as number) - (at(null, p.t) ?? Number.NaN)), label).toBeLessThan(0.011);
        for (const g of s.gpus)
          for (const p of g.points)
            if (p.v !== null)
              expect(
                Math.abs(p.v - (at(g.gpuIndex, p.t) ?? Number.NaN)),
                `${label} gpu ${g.gpuIndex}`,
              ).toBeLessThan(0.011);
        // No gap at the newest edge: the last bin holds the newest raw sample, written after the job's last run.
        const binMs = s.binSeconds * 1000;
        expect(drawn.at(-1)?.t, label).toBe(Math.floor(NOW.getTime() / binMs) * binMs);
      }
    }
  });

  it("equal the raw downsampling where a GPU is missing from some buckets", async () => {
    for (const range of CHART_RANGES) {
      const s = await utilizationSeries(tenant.ctx, tenant.org.slug, gappyId, { range, now: NOW });
      const ref = await rawReference(gappyId, range);
      const at = (gpu: number | null, t: number) => ref.find((r) => r.gpu === gpu && r.t === t)?.v;
      const drawn = s.average.filter((p) => p.v !== null);
      expect(drawn.length, range).toBe(ref.filter((r) => r.gpu === null).length);
      for (const p of drawn)
        expect(Math.abs((p.v as number) - (at(null, p.t) ?? Number.NaN)), range).toBeLessThan(0.011);
      for (const g of s.gpus) {
        const points = g.points.filter((p) => p.v !== null);
        expect(points.length, `${range} gpu ${g.gpuIndex}`).toBe(
          ref.filter((r) => r.gpu === g.gpuIndex).length,
        );
        for (const p of points)
          expect(
            Math.abs((p.v as number) - (at(g.gpuIndex, p.t) ?? Number.NaN)),
            `${range} gpu ${g.gpuIndex}`,
          ).toBeLessThan(0.011);
      }
      // GPU 1's gaps are gaps, not zeros, and the other GPUs are drawn there (bins under 2 h hold odd hours only).
      if (s.binSeconds < 7200)
        expect(
          s.gpus[1]?.points.some((p, k) => p.v === null && s.gpus[0]?.points[k]?.v !== null),
          range,
        ).toBe(true);
    }
  });

  it("read only the given organization's rows", async () => {
    const id = ids.get(4) as string;
    const { level, binSeconds, seconds } = RANGE_SPECS["7d"];
    const from = new Date(NOW.getTime() - seconds * 1000);
    const q = (orgId: string) =>
      chartQuery({
        instanceId: id,
        gpuCount: 4,
        orgId,
        col: CHART_COLUMNS.utilization,
        level,
        binSeconds,
        from,
        to: NOW,
      });
    const [own] = (await getDb().execute<ChartRow>(q(tenant.org.id))).rows;
    // Four GPUs and the average; every series reaches the newest bin.
    const newest =
      Math.floor(NOW.getTime() / 1000 / binSeconds) - Math.floor(from.getTime() / 1000 / binSeconds);
    const k = own?.k ?? [];
    const last = (vs: Array<number | null> | null | undefined) =>
      Math.max(...k.filter((_, j) => vs?.[j] != null));
    expect(own?.gpus).toHaveLength(4);
    for (const g of own?.gpus ?? []) expect(last(g)).toBe(newest);
    expect(last(own?.avg)).toBe(newest);
    expect(own?.mean).toBeGreaterThan(0);
    const [other] = (await getDb().execute<ChartRow>(q("00000000-0000-4000-8000-000000000000"))).rows;
    // One row without data: nothing of another organization's instance.
    expect(other).toMatchObject({
      k: null,
      avg: null,
      lk: null,
      lv: null,
      la: null,
      mean: null,
      peak: null,
      gpus: [null, null, null, null],
    });
  });

  it("draw a bin that is one whole level row with its GPUs' stored values exactly (1 h, 6 h, 7 d)", async () => {
    let compared = 0;
    for (const gpus of GPU_COUNTS) {
      const id = ids.get(gpus) as string;
      for (const range of ["1h", "6h", "7d"] as const) {
        const { level, binSeconds, seconds } = RANGE_SPECS[range];
        expect(binSeconds, range).toBe(level);
        const s = await utilizationSeries(tenant.ctx, tenant.org.slug, id, { range, now: NOW });
        // The level's rows before its newest bucket (that one and later are read from finer sources), each GPU's
        // mean as the float8 of the stored real: what the grouped statement returned for such a bin.
        const rows = await getDb().execute<{ t: number; a: number[] }>(sql`
          select (extract(epoch from bucket) * 1000)::float8 as t, utilization_avg::float8[] as a
          from metric_chart_levels
          where instance_id = ${id} and level_s = ${level}
            and bucket >= ${new Date(NOW.getTime() - seconds * 1000)}
            and bucket < (select max(bucket) from metric_chart_levels where instance_id = ${id} and level_s = ${level})`);
        expect(rows.rows.length, range).toBeGreaterThan(50);
        for (const row of rows.rows)
          for (const g of s.gpus) {
            const point = g.points[(Number(row.t) - (g.points[0]?.t ?? 0)) / (binSeconds * 1000)];
            expect(point?.t).toBe(Number(row.t));
            const stored = Number(row.a[g.gpuIndex]);
            expect(point?.v, `${gpus} GPU ${range} gpu ${g.gpuIndex} at ${row.t}`).toBe(
              Math.round(stored * 100) / 100,
            );
            compared++;
          }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    const tie = await utilizationSeries(tenant.ctx, tenant.org.slug, tieId, { range: "7d", now: NOW });
    const drawn = [...tie.gpus.flatMap((g) => g.points), ...tie.average].filter((p) => p.v !== null);
    expect(drawn.length).toBeGreaterThan(2 * 500);
    expect(new Set(drawn.map((p) => p.v))).toEqual(new Set([42.67]));
  });
});
