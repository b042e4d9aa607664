import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { RANGE_SPECS, rollupLevels, rollupMetrics, utilizationSeries } from "@/lib/telemetry";
import type { ChartRange } from "@/lib/telemetry/ranges";
import type { Benchmark } from "./types";

const INSTANCES = 21; // × 8 GPUs × 7 days of 10 s samples ≈ 10.2 million rows
const GPUS = 8;
const DAY = 86_400_000;
const RANGES: ChartRange[] = ["1h", "24h", "7d", "30d"];

/**
 * The instance page's utilization chart (utilizationSeries: access check, then per-GPU and average series
 * downsampled in SQL from the range's rollup level) for one 8-GPU instance over 1 h, 24 h, 7 d and 30 d, on a
 * metric_samples table of over ten million rows, next to the same downsampling over raw samples and a bare
 * index range scan of that instance's 7 days of raw samples; the notes give the rows each range reads.
 */
export const telemetryChart: Benchmark = {
  name: "telemetry-chart",
  description:
    "utilization chart per range (rollup levels, ≤600 points/series) on 10M+ samples vs. raw samples",
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
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(now.getTime() - 7 * DAY);
    await db.execute(sql`
      insert into instances (org_id, project_id, name, kind, state, region_code, instance_type_id, gpu_model_id,
        gpu_count, slices_per_gpu, pricing_model, image_id, disk_gib, workload, created_at, started_at, updated_at)
      select ${org.id}, ${project.id}, 'bench-' || n, 'container', 'running', 'eu-es-mad1', 'h100.8x', 'h100',
        ${GPUS}, 7, 'on_demand', 'pytorch-2.5-cuda12.4', 100, 'training', ${from}, ${from}, ${from}
      from generate_series(1, ${INSTANCES}) as n`);

    // Bulk load the way a restore would: rows in key order, the primary key built once afterwards. The table is
    // unlogged in this throwaway database only, to spare the WAL; reads do not depend on it.
    const t0 = performance.now();
    const ticks = (now.getTime() - from.getTime()) / 10_000;
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      await tx.execute(sql`alter table metric_samples set unlogged`);
      await tx.execute(
        sql`alter table metric_samples drop constraint metric_samples_instance_id_gpu_index_at_pk`,
      );
      await tx.execute(sql`
        insert into metric_samples
          (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
        select i.id, g, ${from}::timestamptz + make_interval(secs => n * 10), i.org_id, v.u, v.u * 0.7,
          120 + v.u * 5.8, 35 + v.u * 0.45
        from (select id, org_id from instances where org_id = ${org.id} order by id) i
        cross join generate_series(0, ${GPUS - 1}) as g
        cross join generate_series(1, ${ticks}) as n
        cross join lateral (select (20 + (n * 7 + g * 13) % 80)::real as u) v`);
      await tx.execute(sql`alter table metric_samples add primary key (instance_id, gpu_index, at)`);
    });
    await db.execute(sql`vacuum analyze metric_samples`);
    const loadS = (performance.now() - t0) / 1000;
    const target = (
      await db.execute<{ id: string }>(
        sql`select id from instances where org_id = ${org.id} order by id limit 1`,
      )
    ).rows[0]?.id as string;
    // The chart instance's rollups come from the worker's rollup job; the other instances' rollups (which only
    // give the rollup table a realistic size) are computed straight from the same formula.
    await db.execute(sql`update instances set state = 'stopped', updated_at = ${new Date(from.getTime() - 2 * DAY)}
                         where org_id = ${org.id} and id <> ${target}`);
    const t1 = performance.now();
    await rollupMetrics(systemCtx("bench"), { now, lookbackMs: 8 * DAY });
    const rollupS = (performance.now() - t1) / 1000;
    await db.execute(sql`
      insert into metric_rollups_5m (instance_id, gpu_index, bucket, org_id, samples, utilization_avg,
        utilization_max, memory_used_avg, power_avg, temperature_avg)
      select i.id, g, b, i.org_id, 30, v.u, v.u + 3, v.u * 0.7, 120 + v.u * 5.8, 35 + v.u * 0.45
      from (select id, org_id from instances where org_id = ${org.id} and id <> ${target}) i
      cross join generate_series(0, ${GPUS - 1}) as g
      cross join generate_series(date_bin('5 minutes', ${from}::timestamptz, timestamptz 'epoch'),
                                 ${now}::timestamptz - interval '5 minutes',
                                 interval '5 minutes') as b
      cross join lateral (select (55 + 40 * sin(extract(epoch from b) / 5400.0 + g))::real as u) v`);
    // The other instances' chart levels too (the 1-minute one from their raw samples), for a realistic table.
    const others = (
      await db.execute<{ id: string }>(
        sql`select id from instances where org_id = ${org.id} and id <> ${target}`,
      )
    ).rows.map((r) => r.id);
    await rollupLevels(systemCtx("bench"), { from, to: now, instanceIds: others });
    await db.execute(sql`vacuum analyze metric_rollups_5m`);
    await db.execute(sql`vacuum analyze metric_rollup_levels`);

    const total = Number(
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from metric_samples`)).rows[0]?.n ?? 0,
    );
    const rollups = Number(
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from metric_rollups_5m`)).rows[0]?.n ??
        0,
    );
    const levelRows = Number(
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from metric_rollup_levels`)).rows[0]
        ?.n ?? 0,
    );
    const ctx = { actor: { kind: "user" as const, userId: user.id, email: user.email, isOperator: false } };
    const chart = await utilizationSeries(ctx, org.slug, target, { range: "7d", metric: "utilization", now });
    // Rows each range's source holds in its window for the chart instance (all 8 GPUs), against raw samples.
    const readNotes: string[] = [];
    for (const range of RANGES) {
      const spec = RANGE_SPECS[range];
      const start = new Date(now.getTime() - spec.seconds * 1000);
      const rows = Number(
        (
          await db.execute<{ n: number }>(
            spec.source === "raw"
              ? sql`select count(*)::int as n from metric_samples
                  where instance_id = ${target} and at >= ${start} and at <= ${now}`
              : sql`select count(*)::int as n from metric_rollup_levels
                  where instance_id = ${target} and level_s = ${spec.level} and bucket >= ${start} and bucket <= ${now}`,
          )
        ).rows[0]?.n ?? 0,
      );
      const raw = Number(
        (
          await db.execute<{ n: number }>(sql`select count(*)::int as n from metric_samples
            where instance_id = ${target} and at >= ${start} and at <= ${now}`)
        ).rows[0]?.n ?? 0,
      );
      readNotes.push(
        `${range}: reads ${rows.toLocaleString("en")} rows (${Math.round(rows / GPUS)} per GPU, ` +
          `${spec.level} s ${spec.source === "raw" ? "raw samples" : "level"}, ${spec.binSeconds} s bins) ` +
          `instead of ${raw.toLocaleString("en")} raw samples`,
      );
    }
    const scanned = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from metric_samples
        where instance_id = ${target} and at > ${from} and at <= ${now}`)
    ).rows[0]?.n;
    return {
      baseline: "raw index range scan (count of the 7 days)",
      notes: [
        `${total.toLocaleString("en")} raw samples (${INSTANCES} instances × ${GPUS} GPUs × 7 days at 10 s), ` +
          `loaded in ${loadS.toFixed(1)} s; ${rollups.toLocaleString("en")} rollup rows (the chart instance's by ` +
          `rollupMetrics in ${rollupS.toFixed(1)} s); ${levelRows.toLocaleString("en")} rows in the 1 min / 20 min / ` +
          `1 h levels`,
        ...readNotes,
        `the chart instance has ${Number(scanned).toLocaleString("en")} raw samples in the window; the chart returns ` +
          `${chart.gpus.length} GPU series + average of ${chart.average.length} points (${chart.binSeconds} s bins, from ${chart.source})`,
      ],
      variants: [
        {
          name: "raw index range scan (count of the 7 days)",
          run: () =>
            db.execute(sql`select count(*) from metric_samples
              where instance_id = ${target} and gpu_index = any(${sql.param([0, 1, 2, 3, 4, 5, 6, 7])}::int2[])
                and at > ${from} and at <= ${now}`),
        },
        ...RANGES.flatMap((range) => {
          const spec = RANGE_SPECS[range];
          const start = new Date(now.getTime() - spec.seconds * 1000);
          return [
            {
              name: `utilizationSeries ${range} (${spec.source === "raw" ? "raw" : `${spec.level} s level`})`,
              run: () => utilizationSeries(ctx, org.slug, target, { range, metric: "utilization", now }),
            },
            {
              name: `same downsampling over raw samples ${range} (date_bin ${spec.binSeconds} s)`,
              run: () =>
                db.execute(sql`select gpu_index, date_bin(make_interval(secs => ${spec.binSeconds}), at,
                    timestamptz 'epoch') as t, avg(utilization_pct), max(utilization_pct) from metric_samples
                  where instance_id = ${target} and at >= ${start} and at <= ${now}
                  group by grouping sets ((gpu_index, 2), (2), ())`),
            },
          ];
        }),
      ],
    };
  },
};
