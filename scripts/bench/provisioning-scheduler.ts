import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { quotas } from "@/lib/db/schema";
import {
  type Decisions,
  loadRegionHolders,
  loadRegionNodes,
  type PRequest,
  placeQueuedInstances,
  planPlacements,
  seedImages,
} from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { bareWrites } from "./scheduler-bare";
import { record, type SqlTimes } from "./sql-timing";
import { median } from "./stats";
import type { Benchmark } from "./types";

const NODES = 2000;
const GPUS_PER_NODE = 8;
const REQUESTS = 10_000;
/** One node in ten keeps its last two GPUs in MIG mode. */
const MIG_EVERY = 10;
/** Ticks measured, each on a fresh region with the same fleet and queue (one tick is too noisy to believe). */
const TICKS = Number(process.env.BENCH_SCHEDULER_TICKS ?? 5);
/**
 * The ticks' clock. The simulated provider keys its provisioning draw on the tick's time, so one clock gives
 * every tick (and every run of this bench, before and after a change) the same input and the same decisions.
 */
const NOW = new Date("2026-12-01T12:00:00.000Z");

type Db = ReturnType<typeof getDb>;
type Gpus = { whole: number; mig_slices: number };

/** A region of NODES nodes and REQUESTS queued requests, bulk-inserted with generate_series. */
async function seedRegion(db: Db, org: string, project: string, k: number): Promise<string> {
  const region = `bench-${Date.now().toString(36)}-${k}`;
  await db.execute(sql`
    insert into regions (code, name, city, country, jurisdiction, pue, grid_gco2_per_kwh)
    values (${region}, 'Bench', 'Bench', 'ES', 'EU', 1.2, 100)`);
  await db.execute(sql`
    insert into nodes (name, region_code, gpu_model_id, gpu_count, vcpus, ram_gib)
    select ${region} || '-n' || lpad(i::text, 5, '0'), ${region}, 'h100', ${GPUS_PER_NODE}, 128, 1024
    from generate_series(1, ${NODES}) i`);
  await db.execute(sql`
    insert into node_gpus (node_id, gpu_index, mig_enabled)
    select n.id, g, (substring(n.name from '\\d+$')::int % ${MIG_EVERY} = 0 and g >= ${GPUS_PER_NODE - 2})
    from nodes n cross join generate_series(0, ${GPUS_PER_NODE - 1}) g where n.region_code = ${region}`);
  await db.execute(sql`
    insert into instances (org_id, project_id, name, kind, state, region_code, instance_type_id, gpu_model_id,
      gpu_count, slices_per_gpu, pricing_model, image_id, disk_gib, workload, max_runtime_minutes,
      created_at, queued_at, updated_at)
    select ${org}::uuid, ${project}::uuid, 'q-' || i, 'container', 'queued', ${region}, t.id, 'h100',
      t.gpu_count, t.slices, 'on_demand', 'cuda-12.6-base', 100, 'training',
      case when i % 3 = 0 then null else 30 + i % 600 end,
      ${NOW}::timestamptz - interval '1 hour', ${NOW}::timestamptz - interval '1 hour' + i * interval '10 ms',
      ${NOW}::timestamptz
    from generate_series(1, ${REQUESTS}) i
    cross join lateral (select case i % 10
      when 0 then 'h100.8x' when 1 then 'h100.4x' when 2 then 'h100.4x' when 3 then 'h100.2x'
      when 4 then 'h100.2x' when 5 then 'h100.mig-3g.40gb' else 'h100.1x' end as id) pick
    join lateral (select it.id, it.gpu_count, case when it.mig_profile is null then 7 else 3 end as slices
                  from instance_types it where it.id = pick.id) t on true`);
  // Room for all of it: the quota gate (lib/quotas) would otherwise admit the built-in 8 GPUs per tick.
  await db.insert(quotas).values({ orgId: org, gpuModelId: "h100", regionCode: region, maxGpus: 1_000_000 });
  return region;
}

/** The planner alone on a fresh region (pure function): the full scan against the fit index, same input. */
async function plannerAlone(db: Db, region: string) {
  const nowMs = NOW.getTime();
  const holders = await loadRegionHolders(db, region, NOW);
  const nodes = await loadRegionNodes(db, region, holders);
  const queue = (
    await db.execute<{
      id: string;
      gpu_count: number;
      slices_per_gpu: number;
      max_runtime_minutes: number | null;
    }>(
      sql`select id, gpu_count, slices_per_gpu, max_runtime_minutes from instances
          where region_code = ${region} and state = 'queued'
          order by gpu_model_id, priority desc, queued_at, id`,
    )
  ).rows.map(
    (q): PRequest => ({
      id: q.id,
      modelId: "h100",
      gpuCount: q.gpu_count,
      slicesPerGpu: q.slices_per_gpu,
      spot: false,
      endIfStartedNow: q.max_runtime_minutes ? nowMs + 60_000 + q.max_runtime_minutes * 60_000 : null,
    }),
  );
  const plan = (scan: "linear" | "indexed") => {
    const t = performance.now();
    const d = planPlacements({ nodes, holders, queue, now: nowMs, spotNoticeMs: 120_000 }, { scan });
    return { ms: performance.now() - t, d };
  };
  const slow = plan("linear");
  const fast = plan("indexed");
  const gpusOf = (d: Decisions) =>
    d.placements.reduce((n, p) => n + p.alloc.reduce((m, a) => m + a.slices, 0), 0);
  const line = (x: typeof slow) =>
    `${x.ms.toFixed(0)} ms, ${x.d.placements.length.toLocaleString("en")} placed, ${(gpusOf(x.d) / 7).toLocaleString("en")} GPUs`;
  return [
    `planner alone, full scan (before): ${line(slow)}`,
    `planner alone, fit index (now):    ${line(fast)}; decisions identical: ${JSON.stringify(slow.d) === JSON.stringify(fast.d) ? "yes" : "NO"}`,
  ];
}

const gpusIn = (db: Db, region: string, state: "queued" | "provisioning") =>
  db
    .execute<Gpus>(sql`
      select coalesce(sum(gpu_count) filter (where slices_per_gpu = 7), 0)::int as whole,
             coalesce(sum(slices_per_gpu) filter (where slices_per_gpu < 7), 0)::int as mig_slices
      from instances where region_code = ${region} and state = ${state}`)
    .then((r) => r.rows[0] as Gpus);

/** What the tick decided, independent of ids and region names: instance → node number, GPU index, slices. */
async function placementFingerprint(db: Db, region: string): Promise<string> {
  const rows = await db.execute<{ line: string }>(sql`
    select i.name || '>' || substring(n.name from '\\d+$') || '/' || g.gpu_index || ':' || a.slices as line
    from gpu_allocations a join instances i on i.id = a.instance_id
    join node_gpus g on g.id = a.node_gpu_id join nodes n on n.id = g.node_id
    where i.region_code = ${region} and a.released_at is null
    order by 1`);
  return createHash("sha256")
    .update(rows.rows.map((r) => r.line).join("\n"))
    .digest("hex")
    .slice(0, 16);
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

/**
 * Scheduler ticks placing 10,000 queued requests (1, 2, 4 or 8 whole GPUs, or a 3g MIG slice) on a region
 * of 2,000 nodes / 16,000 GPUs, each on a fresh region: the tick's time (p50 and min), where it went (each
 * kind of statement, and the JavaScript between them), the same rows written bare (no index, constraint or
 * trigger) as the floor of the writes, the decisions' fingerprint (equal in every tick), and the GPUs placed
 * against the most any placement could, min(requested, capacity) per kind of capacity.
 */
export const provisioningScheduler: Benchmark = {
  name: "provisioning-scheduler",
  description: `placeQueuedInstances: ${REQUESTS.toLocaleString("en")} requests on ${NODES.toLocaleString("en")} nodes / ${(NODES * GPUS_PER_NODE).toLocaleString("en")} GPUs, ${TICKS} ticks`,
  async setup() {
    await ensureCatalogSeeded();
    const db = getDb();
    await db.transaction((tx) => seedImages(tx));
    const { org, project } = await signUp(
      {},
      {
        name: "Bench",
        email: `bench-sched-${Date.now()}@example.test`,
        password: "bench bench bench",
        organizationName: "Bench scheduler",
      },
    );
    const notes: string[] = [];
    const ticks: { times: SqlTimes; placed: number; bareMs: number; fingerprint: string; got: Gpus }[] = [];
    let bound: { cap: Gpus; req: Gpus } | null = null;
    for (let k = 0; k < TICKS; k++) {
      const t0 = performance.now();
      const region = await seedRegion(db, org.id, project.id, k);
      if (k === 0) {
        notes.push(
          `setup of a region (generate_series bulk insert): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        notes.push(...(await plannerAlone(db, region)));
        const cap = await db.execute<Gpus>(sql`
          select count(*) filter (where not g.mig_enabled)::int as whole,
                 (count(*) filter (where g.mig_enabled) * 7)::int as mig_slices
          from node_gpus g join nodes n on n.id = g.node_id where n.region_code = ${region}`);
        bound = { cap: cap.rows[0] as Gpus, req: await gpusIn(db, region, "queued") };
      }
      const { value: res, times } = await record(() =>
        placeQueuedInstances(systemCtx("scheduler"), { regionCode: region, now: NOW }),
      );
      ticks.push({
        times,
        placed: res.placed,
        bareMs: await bareWrites(db, region),
        fingerprint: await placementFingerprint(db, region),
        got: await gpusIn(db, region, "provisioning"),
      });
    }
    const total = ticks.map((t) => t.times.totalMs);
    const writes = ticks.map((t) =>
      [...t.times.byLabel].reduce((n, [label, e]) => n + (label.startsWith("write ") ? e.ms : 0), 0),
    );
    const bare = ticks.map((t) => t.bareMs);
    notes.push(
      `ticks (s): ${total.map((t) => (t / 1000).toFixed(2)).join(", ")}; p50 ${(median(total) / 1000).toFixed(2)} s, min ${(Math.min(...total) / 1000).toFixed(2)} s (target ≤ 1 s); ${ticks[0]?.placed.toLocaleString("en")} instances placed a tick`,
    );
    notes.push("where a tick's time goes (p50 · min over the ticks; statements in tick order):");
    const labels = [...new Set(ticks.flatMap((t) => [...t.times.byLabel.keys()]))];
    const row = (name: string, xs: number[], extra = "") =>
      notes.push(
        `  ${name.padEnd(30)} ${ms(median(xs)).padStart(8)} · ${ms(Math.min(...xs)).padStart(8)}${extra}`,
      );
    for (const label of labels) {
      const calls = ticks[0]?.times.byLabel.get(label)?.calls ?? 0;
      row(
        label,
        ticks.map((t) => t.times.byLabel.get(label)?.ms ?? 0),
        `   (${calls} statement${calls === 1 ? "" : "s"})`,
      );
    }
    row(
      "JavaScript (plan, rows)",
      ticks.map((t) => t.times.totalMs - t.times.sqlMs),
    );
    row("all writes", writes);
    row(
      "bare writes (baseline)",
      bare,
      `   ratio writes / bare p50 ×${(median(writes) / median(bare)).toFixed(1)}; tick / bare ×${(median(total) / median(bare)).toFixed(1)}`,
    );
    const prints = new Set(ticks.map((t) => t.fingerprint));
    notes.push(
      `decisions: fingerprint ${[...prints].join(", ")}${prints.size === 1 ? ` (identical in all ${TICKS} ticks)` : " — DIFFERENT between ticks"}`,
    );
    if (bound) {
      const { cap, req } = bound;
      const g = ticks[0]?.got as Gpus;
      const boundWhole = Math.min(req.whole, cap.whole);
      const boundMig = Math.min(req.mig_slices, cap.mig_slices);
      // The MIG requests are all 3g (3 slices): two fit on a 7-slice GPU, so this is the most any placement gets.
      const packableMig = Math.min(req.mig_slices, (cap.mig_slices / 7) * Math.floor(7 / 3) * 3);
      notes.push(
        `whole GPUs placed ${g.whole.toLocaleString("en")} of bound min(requested ${req.whole.toLocaleString("en")}, capacity ${cap.whole.toLocaleString("en")}) = ${boundWhole.toLocaleString("en")} → ${((100 * g.whole) / boundWhole).toFixed(1)} %`,
        `MIG slices placed ${g.mig_slices.toLocaleString("en")} of bound min(requested ${req.mig_slices.toLocaleString("en")}, capacity ${cap.mig_slices.toLocaleString("en")}) = ${boundMig.toLocaleString("en")} → ${((100 * g.mig_slices) / Math.max(1, boundMig)).toFixed(1)} % (${((100 * g.mig_slices) / Math.max(1, packableMig)).toFixed(1)} % of the ${packableMig.toLocaleString("en")} that 3g slices can pack)`,
      );
    }
    return { notes, variants: [] };
  },
};
