import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { instances, nodeGpus, nodes, regions } from "@/lib/db/schema";
import { ensureCatalog, newTenant } from "@/test/factories";

export { ensureCatalog } from "@/test/factories";

/** A region of its own, so fleet-wide analytics in a test only see that test's rows. */
export async function newRegion(nodeSpecs: Array<{ gpus: number; model?: string; createdAt: Date }>) {
  await ensureCatalog();
  const db = getDb();
  const code = `tl-${randomUUID().slice(0, 8)}`;
  await db.insert(regions).values({
    code,
    name: `Telemetry ${code}`,
    city: "Testville",
    country: "ES",
    jurisdiction: "EU",
    pue: 1.2,
    gridGco2PerKwh: 150,
  });
  const out: Array<{ id: string; gpuIds: string[] }> = [];
  for (const [i, s] of nodeSpecs.entries()) {
    const [node] = await db
      .insert(nodes)
      .values({
        name: `${code}-n${i}`,
        regionCode: code,
        gpuModelId: s.model ?? "h100",
        gpuCount: s.gpus,
        vcpus: 64,
        ramGib: 512,
        createdAt: s.createdAt,
      })
      .returning();
    if (!node) throw new Error("node insert failed");
    const gpus = await db
      .insert(nodeGpus)
      .values(
        Array.from({ length: s.gpus }, (_, g) => ({ nodeId: node.id, gpuIndex: g, migEnabled: g === 0 })),
      )
      .returning();
    out.push({ id: node.id, gpuIds: gpus.map((g) => g.id) });
  }
  return { code, nodes: out };
}

export type InstanceOver = Partial<typeof instances.$inferInsert>;

/** An instance row in a given state, written directly: these tests are about telemetry, not the lifecycle. */
export async function insertInstance(
  t: { org: { id: string }; project: { id: string } },
  over: InstanceOver & { createdAt: Date },
) {
  const [row] = await getDb()
    .insert(instances)
    .values({
      orgId: t.org.id,
      projectId: t.project.id,
      name: `tl-${randomUUID().slice(0, 6)}`,
      kind: "container",
      state: "running",
      regionCode: "eu-es-mad1",
      instanceTypeId: "h100.2x",
      gpuModelId: "h100",
      gpuCount: 2,
      slicesPerGpu: 7,
      pricingModel: "on_demand",
      imageId: "pytorch-2.5-cuda12.4",
      diskGib: 100,
      workload: "training",
      simSeed: 4242,
      updatedAt: over.createdAt,
      ...over,
    })
    .returning();
  if (!row) throw new Error("instance insert failed");
  return row;
}

export async function tenantWithCatalog(label = "tl") {
  await ensureCatalog();
  return newTenant(label);
}

export async function count(query: ReturnType<typeof sql>): Promise<number> {
  const res = await getDb().execute<{ n: number }>(query);
  return Number(res.rows[0]?.n ?? 0);
}

export const countSamples = (instanceId: string) =>
  count(sql`select count(*)::int as n from metric_samples where instance_id = ${instanceId}`);

/**
 * Private copies of catalog regions (same nodes, MIG layout and instance types; prices in force since 2000),
 * so a test can run the demo story without touching the shared catalog fleet. Returns catalog → copy codes.
 */
export async function mirrorRegions(codes: string[]): Promise<Record<string, string>> {
  await ensureCatalog();
  const db = getDb();
  const suffix = randomUUID().slice(0, 6);
  const map: Record<string, string> = {};
  for (const code of codes) {
    const copy = `${code}-${suffix}`;
    map[code] = copy;
    await db.execute(sql`
      insert into regions (code, name, city, country, jurisdiction, pue, grid_gco2_per_kwh)
      select ${copy}, name || ' (copy)', city, country, jurisdiction, pue, grid_gco2_per_kwh
      from regions where code = ${code}`);
    await db.execute(sql`
      insert into prices (instance_type_id, region_code, pricing_model, usd_per_hour, effective_from)
      select distinct on (instance_type_id, pricing_model) instance_type_id, ${copy}, pricing_model, usd_per_hour,
        timestamptz '2000-01-01'
      from prices where region_code = ${code} order by instance_type_id, pricing_model, effective_from desc`);
    await db.execute(sql`
      with src as (select * from nodes where region_code = ${code} and status = 'active'),
      copied as (
        insert into nodes (name, region_code, gpu_model_id, gpu_count, vcpus, ram_gib, status, created_at)
        select name || '-' || ${suffix}, ${copy}, gpu_model_id, gpu_count, vcpus, ram_gib, status,
          timestamptz '2000-01-01'
        from src returning id, name
      )
      insert into node_gpus (node_id, gpu_index, mig_enabled)
      select c.id, g.gpu_index, g.mig_enabled
      from copied c join src s on c.name = s.name || '-' || ${suffix}
      join node_gpus g on g.node_id = s.id`);
  }
  return map;
}
