import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { type Ctx, NotFoundError, textFilter } from "@/lib/core";
import { readDb } from "@/lib/db/client";

const NODE_STATUSES = ["active", "draining", "down"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export const nodeRowSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  regionCode: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  status: z.enum(NODE_STATUSES),
  gpuCount: z.number().int(),
  /** GPUs in MIG mode (each carved into 7 compute slices). */
  migGpus: z.number().int(),
  /** Which GPUs (by index) are in MIG mode: the layout PUT /admin/nodes/{id}/mig-layout sets. */
  migGpuIndexes: z.array(z.number().int()),
  /** Physical GPUs holding at least one live allocation. */
  gpusAllocated: z.number().int(),
  /** Instances holding capacity there (provisioning, running, stopping, preempting). */
  instances: z.number().int(),
  vcpus: z.number().int(),
  ramGib: z.number().int(),
  createdAt: z.date(),
});
export type NodeRow = z.infer<typeof nodeRowSchema>;
export const nodeListSchema = z.object({ items: z.array(nodeRowSchema) });

export const nodeFiltersSchema = z.object({
  region: textFilter,
  status: z.preprocess(
    (v) => ((NODE_STATUSES as readonly unknown[]).includes(v) ? v : undefined),
    z.enum(NODE_STATUSES).optional(),
  ),
});
export type NodeFilters = { region?: string; status?: string };

const rowSql = sql`
  select n.id, n.name, n.region_code as "regionCode", n.gpu_model_id as "gpuModelId",
    m.name as "gpuModelName", n.status, n.gpu_count as "gpuCount", n.vcpus, n.ram_gib as "ramGib",
    n.created_at as "createdAt",
    (select count(*)::int from node_gpus g where g.node_id = n.id and g.mig_enabled) as "migGpus",
    array(select g.gpu_index from node_gpus g where g.node_id = n.id and g.mig_enabled
      order by g.gpu_index) as "migGpuIndexes",
    (select count(distinct a.node_gpu_id)::int from gpu_allocations a
      where a.node_id = n.id and a.released_at is null) as "gpusAllocated",
    (select count(*)::int from instances i where i.node_id = n.id
      and i.state in ('provisioning', 'running', 'stopping', 'preempting')) as "instances"
  from nodes n join gpu_models m on m.id = n.gpu_model_id`;

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));

/** Every node, by region then name, optionally one region's or one status's. Operators only. */
export async function listNodes(ctx: Ctx, filters: NodeFilters = {}): Promise<NodeRow[]> {
  requireOperator(ctx);
  const f = nodeFiltersSchema.parse(filters);
  const res = await readDb(ctx).execute<NodeRow>(sql`${rowSql}
    where (${f.region ?? null}::text is null or n.region_code = ${f.region ?? null})
      and (${f.status ?? null}::text is null or n.status::text = ${f.status ?? null})
    order by n.region_code, n.name`);
  return res.rows.map((r) => ({ ...r, createdAt: asDate(r.createdAt) }));
}

export type NodeGpu = {
  index: number;
  migEnabled: boolean;
  /** Slices of 7 in use (a whole GPU holds all 7). */
  slicesUsed: number;
  holders: Array<{
    instanceId: string;
    instanceName: string;
    orgSlug: string;
    slices: number;
    migProfile: string | null;
  }>;
};
export type NodeInstance = {
  id: string;
  name: string;
  state: string;
  orgSlug: string;
  orgName: string;
  borrowed: boolean;
  autoRecover: boolean;
  gpus: number;
  stateDeadline: Date | null;
};
export type NodeDetail = NodeRow & { gpus: NodeGpu[]; running: NodeInstance[]; migProfiles: string[] };

/** One node with its GPUs (MIG mode, who holds which slices) and the instances on it. Operators only. */
export async function getNode(ctx: Ctx, id: string): Promise<NodeDetail> {
  requireOperator(ctx);
  if (!z.uuid().safeParse(id).success) throw new NotFoundError("Node");
  const exec = readDb(ctx);
  const [rowRes, gpuRes, instRes, profRes] = await Promise.all([
    exec.execute<NodeRow>(sql`${rowSql} where n.id = ${id}`),
    exec.execute<{
      index: number;
      mig_enabled: boolean;
      instance_id: string | null;
      instance_name: string | null;
      org_slug: string | null;
      slices: number | null;
      mig_profile: string | null;
    }>(sql`
      select g.gpu_index as index, g.mig_enabled, a.instance_id, i.name as instance_name, o.slug as org_slug,
        a.slices, a.mig_profile
      from node_gpus g
      left join gpu_allocations a on a.node_gpu_id = g.id and a.released_at is null
      left join instances i on i.id = a.instance_id
      left join organizations o on o.id = a.org_id
      where g.node_id = ${id} order by g.gpu_index, a.allocated_at`),
    exec.execute<{
      id: string;
      name: string;
      state: string;
      org_slug: string;
      org_name: string;
      borrowed: boolean;
      auto_recover: boolean;
      gpus: string;
      state_deadline: Date | string | null;
    }>(sql`
      select i.id, i.name, i.state, o.slug as org_slug, o.name as org_name, i.borrowed,
        i.auto_recover, i.gpu_count * i.slices_per_gpu / 7.0 as gpus, i.state_deadline
      from instances i join organizations o on o.id = i.org_id
      where i.node_id = ${id} and i.state in ('provisioning', 'running', 'stopping', 'preempting')
      order by i.created_at`),
    exec.execute<{ name: string }>(sql`
      select p->>'name' as name from nodes n join gpu_models m on m.id = n.gpu_model_id,
        jsonb_array_elements(m.mig_profiles) p where n.id = ${id}`),
  ]);
  const row = rowRes.rows[0];
  if (!row) throw new NotFoundError("Node");
  const gpus = new Map<number, NodeGpu>();
  for (const g of gpuRes.rows) {
    const gpu = gpus.get(g.index) ?? {
      index: g.index,
      migEnabled: g.mig_enabled,
      slicesUsed: 0,
      holders: [],
    };
    if (g.instance_id && g.slices !== null) {
      gpu.slicesUsed += g.slices;
      gpu.holders.push({
        instanceId: g.instance_id,
        instanceName: g.instance_name ?? g.instance_id,
        orgSlug: g.org_slug ?? "",
        slices: g.slices,
        migProfile: g.mig_profile,
      });
    }
    gpus.set(g.index, gpu);
  }
  return {
    ...row,
    createdAt: asDate(row.createdAt),
    gpus: [...gpus.values()],
    migProfiles: profRes.rows.map((p) => p.name),
    running: instRes.rows.map((i) => ({
      id: i.id,
      name: i.name,
      state: i.state,
      orgSlug: i.org_slug,
      orgName: i.org_name,
      borrowed: i.borrowed,
      autoRecover: i.auto_recover,
      gpus: Number(i.gpus),
      stateDeadline: i.state_deadline ? asDate(i.state_deadline) : null,
    })),
  };
}
