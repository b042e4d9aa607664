import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { catalogSeedData, ensureCatalogSeeded } from "@/lib/seed/catalog";

describe("seedCatalog", () => {
  it("inserts the derived catalog once, even when called concurrently", async () => {
    await Promise.all([ensureCatalogSeeded(), ensureCatalogSeeded()]);
    await ensureCatalogSeeded();
    const db = getDb();
    const codes = catalogSeedData.regions.map((r) => r.code);
    const r = await db.execute<{
      regions: number;
      nodes: number;
      gpus: number;
      mig: number;
      prices: number;
    }>(sql`
      select
        (select count(*)::int from regions where code = any(${sql.param(codes)}::text[])) as regions,
        (select count(*)::int from nodes where region_code = any(${sql.param(codes)}::text[])) as nodes,
        (select count(*)::int from node_gpus g join nodes n on n.id = g.node_id where n.region_code = any(${sql.param(codes)}::text[])) as gpus,
        (select count(*)::int from node_gpus g join nodes n on n.id = g.node_id
           where n.region_code = any(${sql.param(codes)}::text[]) and g.mig_enabled) as mig,
        (select count(*)::int from prices where region_code = any(${sql.param(codes)}::text[])) as prices`);
    const row = r.rows[0];
    expect(row?.regions).toBe(catalogSeedData.regions.length);
    expect(row?.nodes).toBe(catalogSeedData.nodes.length);
    expect(row?.gpus).toBe(catalogSeedData.nodes.reduce((s, n) => s + n.gpuCount, 0));
    expect(row?.mig).toBeGreaterThan(0);
    expect(row?.prices).toBe(catalogSeedData.prices.length);
  });

  it("keeps every on-demand GPU price at or below the public market median", () => {
    const medians = catalogSeedData.market;
    for (const p of catalogSeedData.prices.filter((x) => x.pricingModel === "on_demand" && !x.toDaysAgo)) {
      const it = catalogSeedData.instanceTypes.find((t) => t.id === p.instanceTypeId);
      if (!it || it.migProfile) continue;
      const median = medians[it.gpuModelId]?.medianPerGpuUsd ?? 0;
      expect(Number(p.usdPerHour) / it.gpuCount).toBeLessThanOrEqual(median);
    }
  });
});
