import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { pruneRawSamples, rawRetentionDays } from "@/lib/telemetry";
import type { Benchmark } from "./types";

const INSTANCES = 4;
const GPUS = 8;
const DAYS = 12;
const DAY = 86_400_000;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * The raw-sample retention job (pruneRawSamples, the worker's hourly telemetry-prune-samples) on 12 days of
 * 10-second samples for 4 eight-GPU instances: rows and table size before, after the pass, and after the
 * vacuum that makes the space reusable. Without it the table only grows; with it, it holds the retention's
 * days (default 8, FORJA_RAW_SAMPLE_RETENTION_DAYS).
 */
export const telemetryRetention: Benchmark = {
  name: "telemetry-retention",
  description: `raw sample retention (${rawRetentionDays()} days) on ${DAYS} days of samples: rows and table size`,
  async setup() {
    const db = getDb();
    await ensureCatalogSeeded();
    await db.transaction((tx) => seedImages(tx));
    const { org, project } = await signUp(
      {},
      {
        name: "Bench",
        email: "bench-retention@example.test",
        password: "bench bench bench",
        organizationName: "Bench R",
      },
    );
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(now.getTime() - DAYS * DAY);
    await db.execute(sql`
      insert into instances (org_id, project_id, name, kind, state, region_code, instance_type_id, gpu_model_id,
        gpu_count, slices_per_gpu, pricing_model, image_id, disk_gib, workload, created_at, started_at, updated_at)
      select ${org.id}, ${project.id}, 'ret-' || n, 'container', 'running', 'eu-es-mad1', 'h100.8x', 'h100',
        ${GPUS}, 7, 'on_demand', 'pytorch-2.5-cuda12.4', 100, 'training', ${from}, ${from}, ${from}
      from generate_series(1, ${INSTANCES}) as n`);
    await db.execute(sql`
      insert into metric_samples
        (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
      select i.id, g, ${from}::timestamptz + make_interval(secs => n * 10), i.org_id, 50, 35, 410, 58
      from (select id, org_id from instances where org_id = ${org.id}) i
      cross join generate_series(0, ${GPUS - 1}) as g
      cross join generate_series(1, ${(DAYS * DAY) / 10_000}) as n`);
    await db.execute(sql`vacuum analyze metric_samples`);
    const size = async () => {
      const r = await db.execute<{ n: number; bytes: number }>(sql`
        select (select count(*) from metric_samples)::int as n,
          pg_total_relation_size('metric_samples')::float8 as bytes`);
      return { n: Number(r.rows[0]?.n), bytes: Number(r.rows[0]?.bytes) };
    };
    const before = await size();
    const t0 = performance.now();
    const res = await pruneRawSamples(systemCtx("bench"), { now });
    const pruneS = (performance.now() - t0) / 1000;
    const after = await size();
    await db.execute(sql`vacuum metric_samples`);
    const vacuumed = await size();
    const keep = rawRetentionDays();
    const perDay = before.bytes / DAYS;
    return {
      notes: [
        `before: ${before.n.toLocaleString("en")} raw samples (${DAYS} days × ${INSTANCES} instances × ${GPUS} GPUs at 10 s), ${mib(before.bytes)}`,
        `pruneRawSamples (keep ${keep} days): ${res.deleted.toLocaleString("en")} rows deleted in ${pruneS.toFixed(1)} s → ${after.n.toLocaleString("en")} rows`,
        `after vacuum: ${mib(vacuumed.bytes)} on disk, the freed ${(100 * (1 - after.n / before.n)).toFixed(0)} % reused by new samples, so the table stays at ~${mib(perDay * keep)} (${keep} days) instead of growing ~${mib(perDay)} a day for ever`,
      ],
      variants: [],
    };
  },
};
