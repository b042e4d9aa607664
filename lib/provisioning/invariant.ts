import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { textArray } from "./sql";
import { CAPACITY_STATES } from "./states";

export type CapacityViolation = { kind: string; subject: string; detail: string };

/**
 * Capacity invariants as SQL, empty when the fleet is consistent. Tests run it after every randomized
 * scenario (scoped to their own region, since test files share one database); an operator check can run it
 * on a live database (it only reads).
 */
export async function checkCapacityInvariants(
  exec: Executor,
  scope: { regionCode?: string } = {},
): Promise<CapacityViolation[]> {
  const capacity = textArray(CAPACITY_STATES);
  const region = scope.regionCode ?? null;
  const res = await exec.execute<CapacityViolation>(sql`
    with active as (
      select a.*, g.mig_enabled, g.node_id as gpu_node_id
      from gpu_allocations a join node_gpus g on g.id = a.node_gpu_id join nodes sn on sn.id = a.node_id
      where a.released_at is null and (${region}::text is null or sn.region_code = ${region}::text)
    ), instances as (
      select * from public.instances where ${region}::text is null or region_code = ${region}::text
    )
    select 'gpu_over_allocated' as kind, node_gpu_id::text as subject,
           'active slices ' || sum(slices) || ' > 7' as detail
      from active group by node_gpu_id having sum(slices) > 7
    union all
    select 'whole_gpu_shared', node_gpu_id::text, count(*) || ' active allocations on a GPU held whole'
      from active group by node_gpu_id
      having count(*) > 1 and bool_or(mig_profile is null)
    union all
    select 'mig_on_non_mig_gpu', id::text, 'MIG slice ' || mig_profile || ' on a GPU not in MIG mode'
      from active where mig_profile is not null and not mig_enabled
    union all
    select 'whole_on_mig_gpu', id::text, 'whole-GPU allocation on a GPU in MIG mode'
      from active where mig_profile is null and mig_enabled
    union all
    select 'whole_gpu_partial', id::text, 'whole-GPU allocation of ' || slices || ' slices'
      from active where mig_profile is null and slices <> 7
    union all
    select 'allocation_without_live_instance', a.id::text,
           'instance ' || a.instance_id || ' is ' || coalesce(i.state::text, 'missing')
      from active a left join instances i on i.id = a.instance_id
      where i.id is null or i.state <> all(${capacity}::instance_state[])
    union all
    select 'allocation_count_mismatch', i.id::text,
           i.state || ' instance with ' || count(a.id) || ' active allocations for ' || i.gpu_count || ' GPUs'
      from instances i left join active a on a.instance_id = i.id
      where i.state = any(${capacity}::instance_state[])
      group by i.id, i.state, i.gpu_count
      having count(a.id) <> i.gpu_count or bool_or(a.slices <> i.slices_per_gpu)
    union all
    select 'allocation_node_mismatch', a.id::text,
           'allocation on node ' || a.node_id || ', GPU of node ' || a.gpu_node_id || ', instance on ' ||
           coalesce(i.node_id::text, 'no node')
      from active a join instances i on i.id = a.instance_id
      where a.node_id <> a.gpu_node_id or i.node_id is distinct from a.node_id
    union all
    select 'allocation_on_down_node', a.id::text, 'active allocation on node ' || n.name || ' which is down'
      from active a join nodes n on n.id = a.node_id where n.status = 'down'
    union all
    select 'instance_node_mismatch', i.id::text, i.state || ' instance on node ' || coalesce(i.node_id::text, 'none')
      from instances i left join nodes n on n.id = i.node_id
      where i.state = any(${capacity}::instance_state[]) and (i.node_id is null or n.status = 'down')
  `);
  return res.rows;
}
