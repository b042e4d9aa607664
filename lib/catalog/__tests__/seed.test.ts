import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { catalogSeedData, ensureCatalogSeeded } from "@/lib/seed/catalog";
import { parseCsv } from "@/scripts/derive-catalog";

// The public market snapshot the catalog is derived from; it lives outside the repository (../shared), so a
// clone without it cannot recompute the range and skips that one check (FORJA_MARKET_DIR points elsewhere).
const marketDir =
  process.env.FORJA_MARKET_DIR ?? path.resolve(process.cwd(), "..", "shared", "data", "market");
const hasMarket = fs.existsSync(path.join(marketDir, "gpu_offerings.csv"));

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

  it("seeds each GPU model's market range, 10th ≤ median ≤ 90th percentile", async () => {
    await ensureCatalogSeeded();
    const { rows } = await getDb().execute<{ id: string; p10: number; median: number; p90: number }>(sql`
      select id, market_p10_usd_per_gpu_hour as p10, market_median_usd_per_gpu_hour as median,
        market_p90_usd_per_gpu_hour as p90
      from gpu_models where id = any(${sql.param(catalogSeedData.gpuModels.map((m) => m.id))}::text[])`);
    expect(rows).toHaveLength(catalogSeedData.gpuModels.length);
    for (const r of rows) {
      const m = catalogSeedData.market[r.id];
      expect(Number(r.p10)).toBeCloseTo(m?.p10PerGpuUsd ?? Number.NaN, 4);
      expect(Number(r.p90)).toBeCloseTo(m?.p90PerGpuUsd ?? Number.NaN, 4);
      expect(Number(r.p10)).toBeLessThanOrEqual(Number(r.median));
      expect(Number(r.median)).toBeLessThanOrEqual(Number(r.p90));
    }
    // The range is a real spread, not the median repeated.
    expect(catalogSeedData.market.h100?.p10PerGpuUsd).toBeLessThan(
      catalogSeedData.market.h100?.p90PerGpuUsd ?? 0,
    );
  });

  it.skipIf(!hasMarket)("derives H100's range from the market CSV's per-GPU on-demand prices", () => {
    const offers = parseCsv(fs.readFileSync(path.join(marketDir, "gpu_offerings.csv"), "utf8"));
    const perGpu = offers
      .filter(
        (r) =>
          ["H100", "H100-SXM", "H100-MEGA", "H100-NVLINK"].includes(r.accelerator ?? "") &&
          r.price_includes_host !== "no" &&
          (r.price_per_hour_usd ?? "").trim() !== "",
      )
      .map((r) => Number(r.price_per_hour_usd) / Number(r.accelerator_count))
      .sort((a, b) => a - b);
    // Percentile at rank p × (n − 1), interpolated between its neighbours.
    const at = (p: number) => {
      const rank = p * (perGpu.length - 1);
      const lo = Math.floor(rank);
      return (perGpu[lo] ?? 0) + ((perGpu[lo + 1] ?? 0) - (perGpu[lo] ?? 0)) * (rank - lo);
    };
    const h100 = catalogSeedData.market.h100;
    expect(h100?.rows).toBe(perGpu.length);
    expect(h100?.p10PerGpuUsd).toBeCloseTo(at(0.1), 4);
    expect(h100?.p90PerGpuUsd).toBeCloseTo(at(0.9), 4);
  });
});
