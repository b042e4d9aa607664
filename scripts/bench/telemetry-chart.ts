import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import {
  CHART_COLUMNS,
  chartQuery,
  RANGE_SPECS,
  rollupLevels,
  rowsRead,
  utilizationSeries,
} from "@/lib/telemetry";
import type { ChartRange } from "@/lib/telemetry/ranges";
import { chartPath1359a10 } from "./chart-path-1359a10";
import { chartPath1417649 } from "./chart-path-1417649";
import { chartQuery1359a10 } from "./chart-query-1359a10";
import { chartQueryBefore } from "./chart-query-before";
import type { Benchmark, Variant } from "./types";

const CHART_GPUS = [1, 2, 4, 8] as const; // one chart instance each, 30 days of 10 s samples
const FILLERS = 13; // 8-GPU instances × 7 days of 10 s samples, so the table holds ~10 million rows
const DAY = 86_400_000;
const RANGES: ChartRange[] = ["1h", "24h", "7d", "30d"];

/**
 * The instance page's utilization chart (utilizationSeries: access check, then per-GPU and average series
 * downsampled in SQL from the range's chart level, the newest edge from finer levels and raw samples) over 1 h,
 * 24 h, 7 d and 30 d for instances of 1, 2, 4 and 8 GPUs with 30 days of 10-second samples, on a metric_samples
 * table of ~10 million rows; each next to the same downsampling over the raw samples in the same run. The notes
 * give the table rows each chart reads (EXPLAIN ANALYZE of its statement) against the raw samples in its window.
 */
export const telemetryChart: Benchmark = {
  name: "telemetry-chart",
  description:
    "utilization chart per range × GPU count (chart levels, ≤2,000 rows) on ~10M samples vs. raw samples",
  async setup() {
    const db = getDb();
    await ensureCatalogSeeded();
    await db.transaction((tx) => seedImages(tx));
    const { user, org, project } = await signUp(
      {},
      {
        name: "Bench",
        email: "bench-telemetry@example.test",
        password: "bench bench bench",
        organizationName: "Bench T",
      },
    );
    // Not on a minute boundary: the rollup job ran at the last whole minute, the newest samples are after it.
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 35_000);
    const jobAt = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const from30 = new Date(now.getTime() - 30 * DAY);
    const from7 = new Date(now.getTime() - 7 * DAY);
    const insert = (name: string, gpus: number, n: number, since: Date) =>
      db.execute(sql`
        insert into instances (org_id, project_id, name, kind, state, region_code, instance_type_id, gpu_model_id,
          gpu_count, slices_per_gpu, pricing_model, image_id, disk_gib, workload, created_at, started_at, updated_at)
        select ${org.id}, ${project.id}, ${name} || n, 'container', 'running', 'eu-es-mad1', 'h100.8x', 'h100',
          ${gpus}, 7, 'on_demand', 'pytorch-2.5-cuda12.4', 100, 'training', ${since}, ${since}, ${since}
        from generate_series(1, ${n}) as n`);
    for (const g of CHART_GPUS) await insert(`chart-${g}gpu-`, g, 1, from30);
    await insert("filler-", 8, FILLERS, from7);

    // Bulk load the way a restore would: rows in key order, the primary key built once afterwards. The table is
    // unlogged in this throwaway database only, to spare the WAL; reads do not depend on it.
    const t0 = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      await tx.execute(sql`alter table metric_samples set unlogged`);
      await tx.execute(
        sql`alter table metric_samples drop constraint metric_samples_instance_id_gpu_index_at_pk`,
      );
      await tx.execute(sql`
        insert into metric_samples
          (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
        select i.id, g, t, i.org_id, v.u, v.u * 0.7, 120 + v.u * 5.8, 35 + v.u * 0.45
        from (select id, org_id, gpu_count, started_at from instances where org_id = ${org.id} order by id) i
        cross join generate_series(0, i.gpu_count - 1) as g
        cross join generate_series(i.started_at + interval '10 seconds', ${now}::timestamptz, interval '10 seconds') as t
        cross join lateral (select (20 + (extract(epoch from t)::bigint / 10 * 7 + g * 13) % 80)::real as u) v`);
      await tx.execute(sql`alter table metric_samples add primary key (instance_id, gpu_index, at)`);
    });
    await db.execute(sql`vacuum analyze metric_samples`);
    const loadS = (performance.now() - t0) / 1000;
    const charts = (
      await db.execute<{ id: string; gpu_count: number }>(
        sql`select id, gpu_count from instances where org_id = ${org.id} and name like 'chart-%' order by gpu_count`,
      )
    ).rows.map((r) => ({ id: r.id, gpus: Number(r.gpu_count) }));
    const chartIds = charts.map((c) => c.id);

    // The chart instances' 5-minute rollups over 30 days in one statement (rollupMetrics' aggregate; the job
    // itself reaches 24 h back), then their chart levels by the job's rollupLevels: 20 min / 1 h from those
    // rollups, 10 s / 1 min from the raw samples of the last 2 days (what the 24 h chart and the edges read).
    const t1 = performance.now();
    await db.execute(sql`
      insert into metric_rollups_5m (instance_id, gpu_index, bucket, org_id, samples, utilization_avg,
        utilization_max, memory_used_avg, power_avg, temperature_avg)
      select m.instance_id, m.gpu_index, date_bin('5 minutes', m.at, timestamptz 'epoch'), m.org_id, count(*)::int,
        avg(m.utilization_pct), max(m.utilization_pct), avg(m.memory_used_gib), avg(m.power_watts),
        avg(m.temperature_c)
      from metric_samples m
      where m.instance_id = any(${sql.param(chartIds)}::uuid[])
        and m.at < date_bin('5 minutes', ${jobAt}::timestamptz, timestamptz 'epoch')
      group by 1, 2, 3, 4`);
    await rollupLevels(systemCtx("bench"), {
      from: new Date(jobAt.getTime() - 2 * DAY),
      to: new Date(Math.floor(jobAt.getTime() / 300_000) * 300_000),
      rawTo: jobAt,
      instanceIds: chartIds,
    });
    const rollupS = (performance.now() - t1) / 1000;
    await db.execute(sql`vacuum analyze metric_rollups_5m`);
    await db.execute(sql`vacuum analyze metric_chart_levels`);

    const count = async (q: ReturnType<typeof sql>) =>
      Number((await db.execute<{ n: number }>(q)).rows[0]?.n ?? 0);
    const total = await count(sql`select count(*)::int as n from metric_samples`);
    const levelRows = await count(sql`select count(*)::int as n from metric_chart_levels`);
    const ctx = { actor: { kind: "user" as const, userId: user.id, email: user.email, isOperator: false } };

    const notes: string[] = [];
    const variants: Variant[] = [];
    for (const c of charts) {
      for (const range of RANGES) {
        const spec = RANGE_SPECS[range];
        const start = new Date(now.getTime() - spec.seconds * 1000);
        const chartInput = {
          instanceId: c.id,
          col: CHART_COLUMNS.utilization,
          level: spec.level,
          binSeconds: spec.binSeconds,
          from: start,
          to: now,
        };
        // As utilizationSeries sends it: scoped to the organization, one column per GPU.
        const q = chartQuery({ ...chartInput, gpuCount: c.gpus, orgId: org.id });
        const plan = await db.execute<{ "QUERY PLAN": Array<{ Plan: Parameters<typeof rowsRead>[0] }> }>(
          sql`explain (analyze, format json) ${q}`,
        );
        const read = rowsRead(plan.rows[0]?.["QUERY PLAN"][0]?.Plan as Parameters<typeof rowsRead>[0]);
        const raw = await count(sql`select count(*)::int as n from metric_samples
          where instance_id = ${c.id} and at >= ${start} and at <= ${now}`);
        const label = `${c.gpus} GPU ${range}`;
        notes.push(
          `${label.padEnd(10)} reads ${read.toLocaleString("en").padStart(6)} rows (${spec.level} s level, ` +
            `${spec.binSeconds} s bins, the edge from finer levels and raw samples) ` +
            `${read <= 2000 ? "≤" : ">"} 2,000; raw samples in the window ${raw.toLocaleString("en")}`,
        );
        const rawName = `${label} same downsampling over raw samples`;
        // The 7-day chart's statement alone (as utilizationSeries runs it: prepared on the pool), what
        // utilizationSeries adds being its access-and-instance statement and the shaping; and the paths and
        // statements before (1359a10's next to utilizationSeries, so both run under the same load).
        if (range === "7d")
          variants.push(
            {
              name: `${label} chart statement before (ecbe8fb)`,
              run: () => db.execute(chartQueryBefore({ ...chartInput, gpuCount: c.gpus })),
              against: rawName,
            },
            {
              name: `${label} chart path before (1417649)`,
              run: () => chartPath1417649(ctx, org.slug, chartInput),
              against: rawName,
            },
            {
              name: `${label} chart statement 1359a10`,
              run: () =>
                executePrepared(db, chartQuery1359a10({ ...chartInput, gpuCount: c.gpus, orgId: org.id })),
              against: rawName,
            },
            {
              name: `${label} chart statement alone`,
              run: () => executePrepared(db, q),
              against: rawName,
            },
            {
              name: `${label} chart path 1359a10`,
              run: () => chartPath1359a10(ctx, org.slug, chartInput),
              against: rawName,
            },
          );
        variants.push(
          {
            name: `${label} utilizationSeries`,
            run: () => utilizationSeries(ctx, org.slug, c.id, { range, metric: "utilization", now }),
            against: rawName,
          },
          {
            name: rawName,
            // Whole seconds per run at 30 days: a few runs give its p50/p95 without dominating the bench.
            runs: raw > 100_000 ? 5 : 20,
            run: () =>
              db.execute(sql`select gpu_index, date_bin(make_interval(secs => ${spec.binSeconds}), at,
                  timestamptz 'epoch') as t, avg(utilization_pct), max(utilization_pct) from metric_samples
                where instance_id = ${c.id} and gpu_index = any(${sql.param(
                  Array.from({ length: c.gpus }, (_, g) => g),
                )}::int2[]) and at >= ${start} and at <= ${now}
                group by grouping sets ((gpu_index, 2), (2), ())`),
          },
        );
      }
    }
    return {
      notes: [
        `${total.toLocaleString("en")} raw samples (instances of 1, 2, 4 and 8 GPUs × 30 days and ${FILLERS} of ` +
          `8 GPUs × 7 days, at 10 s), loaded in ${loadS.toFixed(1)} s; the chart instances' rollups and levels in ` +
          `${rollupS.toFixed(1)} s: ${levelRows.toLocaleString("en")} level rows (10 s / 1 min over 2 days, 20 min / ` +
          `1 h over 30 days; one row per instance and bucket)`,
        ...notes,
      ],
      variants,
    };
  },
};
