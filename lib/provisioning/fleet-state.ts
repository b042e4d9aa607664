import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import type { PAlloc, PHolder, PNode } from "./placement";
import { uuidArray } from "./sql";
import { CAPACITY_STATES, SLICES_PER_GPU } from "./states";

/**
 * The capacity states as a literal list, so the planner sees constants that imply instances_node_idx's
 * predicate. A parameter cast to instance_state[] is not folded (the enum cast is not immutable): the partial
 * index was unusable, and with a region's nodes not yet analyzed the holders read rescanned every holder of
 * every region once per node (2,000 × 6,650 rows, seconds per tick). The states are this module's constants.
 */
const CAPACITY_STATE_LIST = sql.raw(CAPACITY_STATES.map((s) => `'${s}'`).join(", "));

/**
 * Active nodes of a region with each GPU's slices in use, in name order.
 *
 * The use is summed from the holders' live allocations (`holders`, which the caller reads anyway), not
 * probed GPU by GPU (16,000 index probes for 2,000 nodes, most of a tick's read time), and checked node by
 * node against node_capacity, which the allocation triggers keep in the same transactions (0019, 0032).
 * The holders' use of a GPU is never more than its real use, so the node's free whole GPUs and its free
 * MIG slices match node_capacity's only when the use matches GPU by GPU: a whole GPU is held by one
 * allocation of 7 slices or none, and a sum of free slices that is equal while no term is smaller has equal
 * terms. A node whose figures differ (an allocation no holder accounts for, or a release between the two
 * reads) is counted from gpu_allocations. Whatever slips past, the allocation insert's trigger still refuses
 * a double booking.
 */
export async function loadRegionNodes(
  exec: Executor,
  regionCode: string,
  holders: PHolder[] | Promise<PHolder[]>,
): Promise<PNode[]> {
  // One row per node, its GPUs as one text ("id" or "id+" for a GPU in MIG mode, in index order): 2,000 rows
  // to parse, not 16,000 (the per-GPU rows' parsing was ~30 ms of the tick's JavaScript before it could plan).
  const [res, held] = await Promise.all([
    exec.execute<{
      node_id: string;
      name: string;
      gpu_model_id: string;
      gpus: string;
      whole_free: number | null;
      mig_free: number | null;
    }>(sql`
      select n.id as node_id, n.name, n.gpu_model_id, c.whole_free, c.mig_free[1] as mig_free,
        string_agg(g.id::text || case when g.mig_enabled then '+' else '' end, ',' order by g.gpu_index) as gpus
      from nodes n join node_gpus g on g.node_id = n.id left join node_capacity c on c.node_id = n.id
      where n.region_code = ${regionCode} and n.status = 'active'
      group by n.id, c.node_id
      order by n.name`),
    holders,
  ]);
  const use = new Map<string, number>();
  for (const h of held) for (const a of h.alloc) use.set(a.gpuId, (use.get(a.gpuId) ?? 0) + a.slices);
  const byId = new Map<string, PNode>();
  const kept = new Map<string, { whole: number | null; mig: number | null }>();
  for (const r of res.rows) {
    const gpus = r.gpus.split(",").map((g) => {
      const mig = g.endsWith("+");
      const id = mig ? g.slice(0, -1) : g;
      return { id, mig, used: use.get(id) ?? 0 };
    });
    byId.set(r.node_id, { id: r.node_id, name: r.name, modelId: r.gpu_model_id, gpus });
    kept.set(r.node_id, { whole: r.whole_free, mig: r.mig_free });
  }
  const recount: string[] = [];
  for (const node of byId.values()) {
    let whole = 0;
    let mig = 0;
    for (const g of node.gpus) {
      if (!g.mig) whole += g.used === 0 ? 1 : 0;
      else mig += Math.max(0, SLICES_PER_GPU - g.used);
    }
    const k = kept.get(node.id);
    if (k?.whole !== whole || k.mig !== mig) recount.push(node.id);
  }
  if (recount.length > 0) {
    const counted = await exec.execute<{ gpu_id: string; used: number }>(sql`
      select g.id as gpu_id,
        coalesce((select sum(a.slices) from gpu_allocations a
                  where a.node_gpu_id = g.id and a.released_at is null), 0)::int as used
      from node_gpus g where g.node_id = any(${uuidArray(recount)})`);
    const real = new Map(counted.rows.map((r) => [r.gpu_id, r.used]));
    for (const id of recount) {
      for (const g of byId.get(id)?.gpus ?? []) g.used = real.get(g.id) ?? 0;
    }
  }
  return [...byId.values()];
}

/**
 * Instances holding GPUs on the region's active nodes, with when each is expected to give them back:
 * running → started + max runtime; provisioning → ready deadline + max runtime; stopping and preempting →
 * their deadline. No max runtime → unknown (null).
 */
export async function loadRegionHolders(exec: Executor, regionCode: string, now: Date): Promise<PHolder[]> {
  const res = await exec.execute<{
    id: string;
    node_id: string;
    state: string;
    pricing_model: string;
    started_at: string | null;
    release_at: string | null;
    alloc: PAlloc[];
  }>(sql`
    select i.id, i.node_id, i.state, i.pricing_model, i.started_at,
      case
        when i.state in ('stopping', 'preempting') then i.state_deadline
        when i.max_runtime_minutes is null then null
        when i.state = 'running' then i.started_at + make_interval(mins => i.max_runtime_minutes)
        else coalesce(i.state_deadline, ${now}) + make_interval(mins => i.max_runtime_minutes)
      end as release_at,
      coalesce(json_agg(json_build_object('gpuId', a.node_gpu_id, 'slices', a.slices))
               filter (where a.id is not null), '[]') as alloc
    from instances i
    join nodes n on n.id = i.node_id
    left join gpu_allocations a on a.instance_id = i.id and a.released_at is null
    where n.region_code = ${regionCode} and n.status = 'active'
      and i.state in (${CAPACITY_STATE_LIST})
    group by i.id`);
  const nowMs = now.getTime();
  return res.rows.map((r) => ({
    id: r.id,
    nodeId: r.node_id,
    alloc: r.alloc,
    // An instance past its expected end has not given its GPUs back yet; treat it as "any moment now".
    releaseAt: r.release_at === null ? null : Math.max(nowMs, new Date(r.release_at).getTime()),
    reclaimable: r.state === "running" && r.pricing_model === "spot",
    preempting: r.state === "preempting",
    startedAt: r.started_at ? new Date(r.started_at).getTime() : nowMs,
  }));
}
