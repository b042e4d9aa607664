import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { nodeGpus, nodes, quotas, regions } from "@/lib/db/schema";
import { ensureCatalog } from "@/test/factories";

export { ensureCatalog, newOrg, type TestClock, testClock } from "@/test/factories";

export type FleetNodeSpec = {
  gpus?: number;
  model?: string;
  mig?: number[];
  status?: "active" | "draining" | "down";
};
export type TestFleet = {
  region: string;
  nodes: Array<{ id: string; name: string; gpuIds: string[] }>;
};

/**
 * A region of its own (unique code, prices for every instance type of the models used) with the given nodes,
 * so fleet tests never compete with other tests for capacity.
 */
export async function newFleet(
  specs: FleetNodeSpec[],
  opts: { jurisdiction?: string; models?: string[] } = {},
): Promise<TestFleet> {
  await ensureCatalog();
  const db = getDb();
  const code = `t-${randomUUID().slice(0, 8)}`;
  await db.insert(regions).values({
    code,
    name: `Test ${code}`,
    city: "Testville",
    country: "ES",
    jurisdiction: opts.jurisdiction ?? "EU",
    pue: 1.2,
    gridGco2PerKwh: 150,
  });
  const models = [...new Set([...(opts.models ?? []), ...specs.map((s) => s.model ?? "h100")])];
  await db.execute(sql`
    insert into prices (instance_type_id, region_code, pricing_model, usd_per_hour, effective_from)
    select t.id, ${code}, pm.m::pricing_model,
      round((case when t.mig_profile is null then t.gpu_count * 2.5 else 0.5 end)
            * case pm.m when 'spot' then 0.4 when 'reserved_1m' then 0.8 when 'reserved_1y' then 0.6 else 1 end, 4),
      '2020-01-01'
    from instance_types t
    cross join (values ('on_demand'), ('spot'), ('reserved_1m'), ('reserved_1y')) as pm(m)
    where t.gpu_model_id = any(${`{${models.join(",")}}`}::text[])`);
  const out: TestFleet = { region: code, nodes: [] };
  for (const [i, s] of specs.entries()) {
    const gpus = s.gpus ?? 8;
    const [node] = await db
      .insert(nodes)
      .values({
        name: `${code}-n${i}`,
        regionCode: code,
        gpuModelId: s.model ?? "h100",
        gpuCount: gpus,
        vcpus: 128,
        ramGib: 1024,
        status: s.status ?? "active",
      })
      .returning();
    if (!node) throw new Error("node insert failed");
    const gpuRows = await db
      .insert(nodeGpus)
      .values(
        Array.from({ length: gpus }, (_, g) => ({
          nodeId: node.id,
          gpuIndex: g,
          migEnabled: s.mig?.includes(g) ?? false,
        })),
      )
      .returning();
    out.nodes.push({ id: node.id, name: node.name, gpuIds: gpuRows.map((r) => r.id) });
  }
  return out;
}

/** Lift the organization's quota for a region, so fleet tests are about the fleet. */
export async function bigQuota(orgId: string, regionCode: string, maxGpus = 10_000, gpuModelId = "h100") {
  await getDb().insert(quotas).values({ orgId, gpuModelId, regionCode, maxGpus });
}

/** A valid notebook launch for the fleet's region; override what the test is about. */
export function notebookSpec(region: string, over: Record<string, unknown> = {}) {
  return {
    kind: "notebook",
    name: `nb-${randomUUID().slice(0, 6)}`,
    project: "default",
    region,
    instanceType: "h100.1x",
    pricingModel: "on_demand",
    image: "pytorch-2.5-cuda12.4",
    ...over,
  };
}

/** Reads for assertions: an instance's row and its active allocations (GPU index, slices, node). */
export async function snapshot(instanceId: string) {
  const db = getDb();
  const inst = await db.execute<{ state: string; node_id: string | null; state_deadline: string | null }>(
    sql`select state, node_id, state_deadline from instances where id = ${instanceId}`,
  );
  const alloc = await db.execute<{ gpu_index: number; slices: number; node_id: string; mig: boolean }>(sql`
    select g.gpu_index, a.slices, a.node_id, g.mig_enabled as mig from gpu_allocations a
    join node_gpus g on g.id = a.node_gpu_id
    where a.instance_id = ${instanceId} and a.released_at is null order by g.gpu_index`);
  const row = inst.rows[0];
  if (!row) throw new Error(`no instance ${instanceId}`);
  const deadline = row.state_deadline ? new Date(row.state_deadline) : null;
  return { state: row.state, nodeId: row.node_id, deadline, alloc: alloc.rows };
}
