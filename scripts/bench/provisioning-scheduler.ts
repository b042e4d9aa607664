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
import type { Benchmark } from "./types";

const NODES = 2000;
const GPUS_PER_NODE = 8;
const REQUESTS = 10_000;
/** One node in ten keeps its last two GPUs in MIG mode. */
const MIG_EVERY = 10;

/**
 * One scheduler tick placing 10,000 queued requests (1, 2, 4 or 8 whole GPUs, or a 3g MIG slice) on a region
 * of 2,000 nodes / 16,000 GPUs, bulk-inserted with generate_series. Reports the tick's time and the GPUs placed
 * against the most any placement could, min(requested, capacity) per kind of capacity.
 */
export const provisioningScheduler: Benchmark = {
  name: "provisioning-scheduler",
  description: `placeQueuedInstances: ${REQUESTS.toLocaleString("en")} requests on ${NODES.toLocaleString("en")} nodes / ${(NODES * GPUS_PER_NODE).toLocaleString("en")} GPUs`,
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
    const region = `bench-${Date.now().toString(36)}`;
    const t0 = performance.now();
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
      select ${org.id}::uuid, ${project.id}::uuid, 'q-' || i, 'container', 'queued', ${region}, t.id, 'h100',
        t.gpu_count, t.slices, 'on_demand', 'cuda-12.6-base', 100, 'training',
        case when i % 3 = 0 then null else 30 + i % 600 end,
        now() - interval '1 hour', now() - interval '1 hour' + i * interval '10 ms', now()
      from generate_series(1, ${REQUESTS}) i
      cross join lateral (select case i % 10
        when 0 then 'h100.8x' when 1 then 'h100.4x' when 2 then 'h100.4x' when 3 then 'h100.2x'
        when 4 then 'h100.2x' when 5 then 'h100.mig-3g.40gb' else 'h100.1x' end as id) pick
      join lateral (select it.id, it.gpu_count, case when it.mig_profile is null then 7 else 3 end as slices
                    from instance_types it where it.id = pick.id) t on true`);
    // Room for all of it: the quota gate (lib/quotas) would otherwise admit the built-in 8 GPUs per tick.
    await db
      .insert(quotas)
      .values({ orgId: org.id, gpuModelId: "h100", regionCode: region, maxGpus: 1_000_000 });
    const setupMs = performance.now() - t0;

    const cap = await db.execute<{ whole: number; mig_slices: number }>(sql`
      select count(*) filter (where not g.mig_enabled)::int as whole, (count(*) filter (where g.mig_enabled) * 7)::int as mig_slices
      from node_gpus g join nodes n on n.id = g.node_id where n.region_code = ${region}`);
    const req = await db.execute<{ whole: number; mig_slices: number }>(sql`
      select coalesce(sum(gpu_count) filter (where slices_per_gpu = 7), 0)::int as whole,
             coalesce(sum(slices_per_gpu) filter (where slices_per_gpu < 7), 0)::int as mig_slices
      from instances where region_code = ${region} and state = 'queued'`);
    // The planner alone on this state (pure function): the full scan every node × request (the reference, as
    // the tick ran before) against the fit index, same input; their decisions must be identical.
    const nowMs = Date.now();
    const nodes = await loadRegionNodes(db, region);
    const holders = await loadRegionHolders(db, region, new Date(nowMs));
    const queue = (
      await db.execute<{
        id: string;
        gpu_count: number;
        slices_per_gpu: number;
        max_runtime_minutes: number | null;
      }>(sql`
        select id, gpu_count, slices_per_gpu, max_runtime_minutes from instances
        where region_code = ${region} and state = 'queued'
        order by gpu_model_id, priority desc, queued_at, id`)
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
    const same = JSON.stringify(slow.d) === JSON.stringify(fast.d);

    const t1 = performance.now();
    const res = await placeQueuedInstances(systemCtx("scheduler"), { regionCode: region });
    const tickMs = performance.now() - t1;
    const got = await db.execute<{ whole: number; mig_slices: number }>(sql`
      select coalesce(sum(gpu_count) filter (where slices_per_gpu = 7), 0)::int as whole,
             coalesce(sum(slices_per_gpu) filter (where slices_per_gpu < 7), 0)::int as mig_slices
      from instances where region_code = ${region} and state = 'provisioning'`);
    const c = cap.rows[0] as { whole: number; mig_slices: number };
    const r = req.rows[0] as { whole: number; mig_slices: number };
    const g = got.rows[0] as { whole: number; mig_slices: number };
    const boundWhole = Math.min(r.whole, c.whole);
    const boundMig = Math.min(r.mig_slices, c.mig_slices);
    // The MIG requests are all 3g (3 slices): two fit on a 7-slice GPU, so this is the most any placement gets.
    const packableMig = Math.min(r.mig_slices, (c.mig_slices / 7) * Math.floor(7 / 3) * 3);
    return {
      notes: [
        `setup (generate_series bulk insert): ${(setupMs / 1000).toFixed(1)} s`,
        `planner alone, full scan (before): ${slow.ms.toFixed(0)} ms, ${slow.d.placements.length.toLocaleString("en")} placed, ${(gpusOf(slow.d) / 7).toLocaleString("en")} GPUs`,
        `planner alone, fit index (now):    ${fast.ms.toFixed(0)} ms, ${fast.d.placements.length.toLocaleString("en")} placed, ${(gpusOf(fast.d) / 7).toLocaleString("en")} GPUs; decisions identical: ${same ? "yes" : "NO"}`,
        `one tick: ${(tickMs / 1000).toFixed(2)} s (target ≤ 1 s), ${res.placed.toLocaleString("en")} instances placed`,
        `whole GPUs placed ${g.whole.toLocaleString("en")} of bound min(requested ${r.whole.toLocaleString("en")}, capacity ${c.whole.toLocaleString("en")}) = ${boundWhole.toLocaleString("en")} → ${((100 * g.whole) / boundWhole).toFixed(1)} %`,
        `MIG slices placed ${g.mig_slices.toLocaleString("en")} of bound min(requested ${r.mig_slices.toLocaleString("en")}, capacity ${c.mig_slices.toLocaleString("en")}) = ${boundMig.toLocaleString("en")} → ${((100 * g.mig_slices) / Math.max(1, boundMig)).toFixed(1)} % (${((100 * g.mig_slices) / Math.max(1, packableMig)).toFixed(1)} % of the ${packableMig.toLocaleString("en")} that 3g slices can pack)`,
      ],
      variants: [],
    };
  },
};
