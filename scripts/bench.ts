/**
 * `npm run bench [-- <name>...] [--runs N]` — benchmarks on a throwaway embedded PostgreSQL (never your data).
 * Each benchmark measures its variants in the same run and reports p50/p95 plus ratios between them, so the
 * figures compare like with like on whatever machine runs it.
 *
 * Add a benchmark: write scripts/bench/<name>.ts exporting a `Benchmark`, and list it in BENCHMARKS below.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "@/lib/db/embedded";
import { runMigrations } from "@/lib/db/migrate";
import { percentile } from "./bench/stats";
import type { Benchmark, Variant } from "./bench/types";

async function loadBenchmarks(): Promise<Benchmark[]> {
  // Imported lazily: their modules reach the database, which only exists once main() has started it.
  return [
    (await import("./bench/budgets-evaluate")).budgetsEvaluate,
    (await import("./bench/budgets-alert-latency")).budgetsAlertLatency,
    (await import("./bench/catalog-offerings")).catalogOfferings,
    (await import("./bench/provisioning-launch")).provisioningLaunch,
    (await import("./bench/provisioning-scheduler")).provisioningScheduler,
    (await import("./bench/telemetry-chart")).telemetryChart,
    (await import("./bench/telemetry-retention")).telemetryRetention,
    (await import("./bench/queue-waits")).queueWaits,
    (await import("./bench/slurm")).slurmBench,
    (await import("./bench/services")).servicesBench,
    (await import("./bench/quota-sim")).quotaSim,
    (await import("./bench/pages")).pagesBench,
    (await import("./bench/load")).loadBench,
  ];
}

async function measure(v: Variant, runs: number, warmup: number) {
  await v.before?.();
  for (let i = 0; i < warmup; i++) {
    await v.run();
    await v.after?.();
  }
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await v.run();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    await v.after?.();
  }
  samples.sort((a, b) => a - b);
  return { name: v.name, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function main() {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 50;
  const names = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs");
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs needs a positive integer");

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "forja-bench-"));
  fs.chmodSync(tmp, 0o755);
  const db = await startEmbeddedPostgres({
    dataDir: path.join(tmp, "pg"),
    port: await freePort(),
    persistent: false,
  });
  process.env.DATABASE_URL = db.url;
  // Sign-up seals its e-mail token into the outbox; on this throwaway database a throwaway key does.
  process.env.NEXTAUTH_SECRET ??= `bench-only-${process.pid}-${Date.now()}`;
  try {
    await runMigrations(db.url);
    const all = await loadBenchmarks();
    const chosen = names.length ? all.filter((b) => names.includes(b.name)) : all;
    if (!chosen.length)
      throw new Error(`no benchmark named ${names.join(", ")}; have: ${all.map((b) => b.name).join(", ")}`);
    console.log(
      `machine: ${os.cpus().length} CPU, node ${process.version}; ${runs} runs per variant after warm-up`,
    );
    for (const b of chosen) {
      console.log(`\n## ${b.name} — ${b.description}`);
      const env = await b.setup();
      for (const line of env.notes ?? []) console.log(`   ${line}`);
      const results = [];
      try {
        for (const v of env.variants)
          results.push({
            ...(await measure(v, Math.min(runs, v.runs ?? runs), v.runs ? 1 : Math.min(5, runs))),
            against: v.against,
          });
      } finally {
        await env.teardown?.();
      }
      for (const r of results)
        console.log(
          `   ${r.name.padEnd(48)} p50 ${fmt(r.p50).padStart(10)}   p95 ${fmt(r.p95).padStart(10)}`,
        );
      for (const r of results.filter((x) => x.against)) {
        const b = results.find((x) => x.name === r.against);
        if (b)
          console.log(
            `   ratio ${r.name} / ${b.name}: p50 ×${(r.p50 / b.p50).toFixed(3)}, p95 ×${(r.p95 / b.p95).toFixed(3)}`,
          );
      }
      const base = results.find((r) => r.name === env.baseline);
      if (base)
        for (const r of results.filter((x) => x !== base))
          console.log(
            `   ratio ${r.name} / ${base.name}: p50 ×${(r.p50 / base.p50).toFixed(1)}, p95 ×${(r.p95 / base.p95).toFixed(1)}`,
          );
    }
  } finally {
    const { closeDb } = await import("@/lib/db/client");
    await closeDb();
    await db.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
