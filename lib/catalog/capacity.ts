import "server-only";
import { type SQL, sql } from "drizzle-orm";

/**
 * Each node's capacity recounted from its GPUs and live allocations, with node_capacity's columns: the rule
 * the triggers of drizzle 0019 keep that table by (forja_refresh_node_capacity). The catalog reads the kept
 * table; this is the reference the consistency test and the benchmark's "before" variant compare it with.
 */
export function recountedNodeCapacity(): SQL {
  return sql`(
    select n.id as node_id, n.region_code, n.gpu_model_id, n.status = 'active' as active,
      count(*) filter (where not g.mig_enabled and g.free = 7)::int as whole_free,
      array[${sql.join(
        [1, 2, 3, 4, 5, 6, 7].map((s) =>
          sql.raw(`coalesce(sum(g.free / ${s}) filter (where g.mig_enabled), 0)`),
        ),
        sql`, `,
      )}]::int[] as mig_free
    from nodes n
    left join (
      select g.node_id, g.mig_enabled, greatest(0, 7 - coalesce(sum(a.slices), 0))::int as free
      from node_gpus g
      left join gpu_allocations a on a.node_gpu_id = g.id and a.released_at is null
      group by g.id
    ) g on g.node_id = n.id
    group by n.id
  )`;
}

/** Where the catalog reads each node's free capacity: the kept table, or a recount (the reference). */
export type CapacitySource = "kept" | "recounted";

export const capacityFrom = (source: CapacitySource): SQL =>
  source === "kept" ? sql`node_capacity` : recountedNodeCapacity();
