import "server-only";
import { sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { gpuAllocations, gpuModels, nodes, regions } from "@/lib/db/schema";

export type FleetModelRow = {
  gpuModelId: string;
  gpuModelName: string;
  nodes: number;
  nodesActive: number;
  nodesDraining: number;
  nodesDown: number;
  gpusTotal: number;
  /** Physical GPUs holding at least one active allocation (a GPU with one MIG slice in use counts). */
  gpusAllocated: number;
};
export type FleetRegion = {
  code: string;
  name: string;
  city: string;
  country: string;
  active: boolean;
  gpusTotal: number;
  gpusAllocated: number;
  models: FleetModelRow[];
};
export type FleetJurisdiction = { jurisdiction: string; regions: FleetRegion[] };

type Flat = Omit<FleetRegion, "models" | "gpusTotal" | "gpusAllocated"> & {
  jurisdiction: string;
} & Partial<FleetModelRow>;

/** Capacity by jurisdiction → region → GPU model, aggregated in SQL. Regions without nodes are listed too. */
export async function getFleet(ctx: Ctx): Promise<FleetJurisdiction[]> {
  requireOperator(ctx);
  const exec = readDb(ctx);
  const res = await exec.execute<Flat>(sql`
    with busy as (
      select ${gpuAllocations.nodeId} as node_id, count(distinct ${gpuAllocations.nodeGpuId})::int as gpus
      from ${gpuAllocations} where ${gpuAllocations.releasedAt} is null group by 1
    )
    select r.code, r.name, r.city, r.country, r.jurisdiction, r.active,
      n.gpu_model_id as "gpuModelId", m.name as "gpuModelName",
      count(n.id)::int as "nodes",
      (count(n.id) filter (where n.status = 'active'))::int as "nodesActive",
      (count(n.id) filter (where n.status = 'draining'))::int as "nodesDraining",
      (count(n.id) filter (where n.status = 'down'))::int as "nodesDown",
      coalesce(sum(n.gpu_count), 0)::int as "gpusTotal",
      coalesce(sum(busy.gpus), 0)::int as "gpusAllocated"
    from ${regions} r
    left join ${nodes} n on n.region_code = r.code
    left join ${gpuModels} m on m.id = n.gpu_model_id
    left join busy on busy.node_id = n.id
    group by r.code, n.gpu_model_id, m.name
    order by r.jurisdiction, r.code, m.name
  `);
  const out: FleetJurisdiction[] = [];
  for (const row of res.rows) {
    let j = out.at(-1);
    if (j?.jurisdiction !== row.jurisdiction) {
      j = { jurisdiction: row.jurisdiction, regions: [] };
      out.push(j);
    }
    let r = j.regions.at(-1);
    if (r?.code !== row.code) {
      r = {
        code: row.code,
        name: row.name,
        city: row.city,
        country: row.country,
        active: row.active,
        gpusTotal: 0,
        gpusAllocated: 0,
        models: [],
      };
      j.regions.push(r);
    }
    if (!row.gpuModelId) continue; // a region with no nodes yet
    const model: FleetModelRow = {
      gpuModelId: row.gpuModelId,
      gpuModelName: row.gpuModelName ?? row.gpuModelId,
      nodes: row.nodes ?? 0,
      nodesActive: row.nodesActive ?? 0,
      nodesDraining: row.nodesDraining ?? 0,
      nodesDown: row.nodesDown ?? 0,
      gpusTotal: row.gpusTotal ?? 0,
      gpusAllocated: row.gpusAllocated ?? 0,
    };
    r.models.push(model);
    r.gpusTotal += model.gpusTotal;
    r.gpusAllocated += model.gpusAllocated;
  }
  return out;
}
