import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recountedNodeCapacity } from "@/lib/catalog/capacity";
import {
  referenceFilterTerms,
  referenceOfferingsCte,
  referencePageQuery,
} from "@/lib/catalog/offerings-reference";
import { offeringsPageQuery } from "@/lib/catalog/offerings-sql";
import { catalogFiltersSchema } from "@/lib/catalog/schemas";
import { insertSynthetic, syntheticPlan } from "@/lib/catalog/synthetic";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, nodeGpus, nodes } from "@/lib/db/schema";
import { mulberry32 } from "@/lib/provisioning";

type Gpu = { id: string; nodeId: string; migEnabled: boolean; used: number };
type Row = Record<string, unknown>;
const db = () => getDb();

async function fleetOf(region: string[]) {
  const { rows } = await db().execute<{
    id: string;
    node_id: string;
    mig_enabled: boolean;
    used: number;
  }>(sql`
    select g.id, g.node_id, g.mig_enabled, coalesce(sum(a.slices), 0)::int as used
    from node_gpus g join nodes n on n.id = g.node_id
    left join gpu_allocations a on a.node_gpu_id = g.id and a.released_at is null
    where n.region_code = any(${sql.param(region)}::text[])
    group by g.id order by g.id`);
  return rows.map((r): Gpu => ({ id: r.id, nodeId: r.node_id, migEnabled: r.mig_enabled, used: r.used }));
}

/** node_capacity as kept, and as recounted from the GPUs and live allocations, for the nodes of `region`. */
async function keptAndRecounted(region: string[]) {
  const read = async (from: ReturnType<typeof sql>) =>
    (
      await db().execute<Row>(sql`
        select c.node_id, c.region_code, c.gpu_model_id, c.active, c.whole_free, c.mig_free
        from ${from} c where c.region_code = any(${sql.param(region)}::text[]) order by c.node_id`)
    ).rows;
  return { kept: await read(sql`node_capacity`), recounted: await read(recountedNodeCapacity()) };
}

describe("node_capacity (kept by triggers on allocations, GPUs and nodes)", () => {
  it("equals the recount after every step of a random allocate / release / drain / MIG / add / remove run", async () => {
    const plan = syntheticPlan({ regions: 2, models: 2, typesPerModel: 4, nodesPerRegionModel: 2 });
    await insertSynthetic(db(), plan, new Date(Date.now() - 86_400_000));
    const region = plan.regionRows.map((r) => r.code);
    const seed = Math.floor(Math.random() * 2 ** 31);
    const rand = mulberry32(seed);
    const pick = <T>(xs: T[]): T | undefined => xs[Math.floor(rand() * xs.length)];
    const orgId = randomUUID();
    const ops: Record<string, number> = {};
    let added = 0;

    // Cumulative weights; the first steps take each change once, so every kind runs whatever the seed.
    const kinds: [string, number][] = [
      ["allocate whole", 0.3],
      ["allocate MIG slice", 0.45],
      ["release", 0.65],
      ["delete allocations", 0.72],
      ["drain / down / activate", 0.82],
      ["MIG mode on / off", 0.92],
      ["add node", 0.96],
      ["remove node", 1],
    ];
    const filters = catalogFiltersSchema.parse({ region, pageSize: 100 });
    const referenceQuery = (capacity: "kept" | "recounted") =>
      referencePageQuery(
        referenceOfferingsCte(new Date(), [], referenceFilterTerms(filters), capacity),
        filters,
      );
    const page = async (q: ReturnType<typeof sql>) =>
      (await db().execute<Row>(q)).rows.map((o) => `${o.instance_type_id}@${o.region_code}=${o.available}`);
    for (let step = 0; step < 120; step++) {
      const fleet = await fleetOf(region);
      const draw = rand();
      const r = step < kinds.length ? (kinds[step - 1]?.[1] ?? 0) : draw;
      let op: string;
      if (r < 0.3) {
        // Whole GPUs, on one or two nodes in one statement (as a scheduler tick writes them).
        op = "allocate whole";
        const free = fleet.filter((g) => !g.migEnabled && g.used === 0);
        const chosen = free.filter(() => rand() < 0.25).slice(0, 6);
        if (chosen.length)
          await db()
            .insert(gpuAllocations)
            .values(
              chosen.map((g) => ({
                orgId,
                instanceId: randomUUID(),
                nodeId: g.nodeId,
                nodeGpuId: g.id,
                slices: 7,
              })),
            );
      } else if (r < 0.45) {
        op = "allocate MIG slice";
        const slices = pick([1, 2, 3, 4, 7]) ?? 1;
        const g = pick(fleet.filter((x) => x.migEnabled && 7 - x.used >= slices));
        if (g)
          await db().insert(gpuAllocations).values({
            orgId,
            instanceId: randomUUID(),
            nodeId: g.nodeId,
            nodeGpuId: g.id,
            slices,
            migProfile: "x",
          });
      } else if (r < 0.65) {
        op = "release";
        const { rows } = await db().execute<{ instance_id: string }>(sql`
          select a.instance_id from gpu_allocations a join nodes n on n.id = a.node_id
          where n.region_code = any(${sql.param(region)}::text[]) and a.released_at is null`);
        const ids = rows.filter(() => rand() < 0.3).map((x) => x.instance_id);
        if (ids.length)
          await db().execute(sql`update gpu_allocations set released_at = now()
            where instance_id = any(${sql.param(ids)}::uuid[]) and released_at is null`);
      } else if (r < 0.72) {
        op = "delete allocations";
        const g = pick(fleet.filter((x) => x.used > 0));
        if (g) await db().execute(sql`delete from gpu_allocations where node_gpu_id = ${g.id}`);
      } else if (r < 0.82) {
        op = "drain / down / activate";
        const nodeId = pick([...new Set(fleet.map((g) => g.nodeId))]);
        const status = pick(["active", "draining", "down"] as const) ?? "active";
        if (nodeId) await db().execute(sql`update nodes set status = ${status} where id = ${nodeId}`);
      } else if (r < 0.92) {
        op = "MIG mode on / off";
        const g = pick(fleet.filter((x) => x.used === 0));
        if (g) await db().execute(sql`update node_gpus set mig_enabled = not mig_enabled where id = ${g.id}`);
      } else if (r < 0.96) {
        op = "add node";
        const [n] = await db()
          .insert(nodes)
          .values({
            name: `${plan.prefix}-added-${added++}`,
            regionCode: pick(region) ?? plan.prefix,
            gpuModelId: pick(plan.models)?.id ?? plan.prefix,
            gpuCount: 4,
            vcpus: 32,
            ramGib: 256,
          })
          .returning({ id: nodes.id });
        if (n)
          await db()
            .insert(nodeGpus)
            .values([0, 1, 2, 3].map((i) => ({ nodeId: n.id, gpuIndex: i, migEnabled: i === 3 })));
      } else {
        op = "remove node";
        const nodeId = pick([...new Set(fleet.map((g) => g.nodeId))]);
        if (nodeId) {
          await db().execute(sql`delete from gpu_allocations where node_id = ${nodeId}`);
          await db().execute(sql`delete from nodes where id = ${nodeId}`);
        }
      }
      ops[op] = (ops[op] ?? 0) + 1;
      const { kept, recounted } = await keptAndRecounted(region);
      expect(kept, `seed ${seed}, step ${step} (${op})`).toEqual(recounted);
      // Each offering's kept figure (offering_summaries.available, drizzle 0031) follows every step too.
      expect(
        await page(offeringsPageQuery(new Date(), [], filters)),
        `seed ${seed}, step ${step} (${op})`,
      ).toEqual(await page(referenceQuery("recounted")));
    }
    expect(Object.keys(ops).sort(), JSON.stringify(ops)).toEqual(kinds.map(([k]) => k).sort());

    // The catalog's previous statement over the kept node_capacity agrees with its recount, and the paged
    // statement listOfferings runs (the summary's kept figures) with both.
    const kept = await page(referenceQuery("kept"));
    expect(kept.length).toBe(plan.offerings.length);
    expect(kept).toEqual(await page(referenceQuery("recounted")));
    expect(await page(offeringsPageQuery(new Date(), [], filters))).toEqual(kept);
  });
});
