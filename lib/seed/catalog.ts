import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { gpuModels, instanceTypes, type MigProfile, nodeGpus, nodes, prices, regions } from "@/lib/db/schema";
import raw from "./catalog-data.json";

type PricingModel = "on_demand" | "spot" | "reserved_1m" | "reserved_1y";

/** Shape of catalog-data.json, written by scripts/derive-catalog.ts (`npm run catalog:derive`). */
export type CatalogSeedData = {
  /** Per GPU model: the public market figures the prices were derived from. */
  market: Record<
    string,
    {
      rows: number;
      medianPerGpuUsd: number;
      p10PerGpuUsd: number;
      p90PerGpuUsd: number;
      spotRows: number;
      spotRatio: number;
    }
  >;
  regions: Array<{
    code: string;
    name: string;
    city: string;
    country: string;
    jurisdiction: string;
    pue: number;
    gridGco2PerKwh: number;
  }>;
  gpuModels: Array<{
    id: string;
    name: string;
    vendor: string;
    memoryGib: number;
    bf16Tflops: number | null;
    memoryBandwidthGbps: number | null;
    tdpWatts: number | null;
    migProfiles: MigProfile[];
  }>;
  instanceTypes: Array<{
    id: string;
    gpuModelId: string;
    gpuCount: number;
    migProfile: string | null;
    vcpus: number;
    ramGib: number;
    localDiskGib: number;
  }>;
  prices: Array<{
    instanceTypeId: string;
    regionCode: string;
    pricingModel: PricingModel;
    usdPerHour: string;
    /** Days before the seeding day the row takes effect / stops (null = still in force). */
    fromDaysAgo: number;
    toDaysAgo: number | null;
  }>;
  nodes: Array<{
    name: string;
    regionCode: string;
    gpuModelId: string;
    gpuCount: number;
    vcpus: number;
    ramGib: number;
    status: "active" | "draining" | "down";
    migGpuIndexes: number[];
  }>;
};

export const catalogSeedData = raw as CatalogSeedData;

const DAY_MS = 86_400_000;

/**
 * Insert the demo catalog (regions, GPU models, instance types, prices, fleet). Idempotent and safe to call
 * from concurrent transactions (test files seed the shared test database in parallel): an advisory lock
 * serializes callers and a catalog that is already there is left as is.
 */
export async function seedCatalog(tx: Tx, opts: { now?: Date } = {}): Promise<{ seeded: boolean }> {
  const data = catalogSeedData;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('forja:seed-catalog'))`);
  const firstRegion = data.regions[0]?.code ?? "";
  const existing = await tx
    .select({ code: regions.code })
    .from(regions)
    .where(eq(regions.code, firstRegion))
    .limit(1);
  if (existing.length) return { seeded: false };

  // Whole days, so every price row of one seeding shares the same, readable boundary.
  const now = opts.now ?? new Date();
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const daysAgo = (d: number) => new Date(today - d * DAY_MS);

  await tx.insert(regions).values(data.regions);
  await tx.insert(gpuModels).values(
    data.gpuModels.map((m) => ({
      ...m,
      marketMedianUsdPerGpuHour: data.market[m.id]?.medianPerGpuUsd ?? null,
      marketP10UsdPerGpuHour: data.market[m.id]?.p10PerGpuUsd ?? null,
      marketP90UsdPerGpuHour: data.market[m.id]?.p90PerGpuUsd ?? null,
    })),
  );
  await tx.insert(instanceTypes).values(data.instanceTypes);
  await tx.insert(prices).values(
    data.prices.map((p) => ({
      instanceTypeId: p.instanceTypeId,
      regionCode: p.regionCode,
      pricingModel: p.pricingModel,
      usdPerHour: p.usdPerHour,
      effectiveFrom: daysAgo(p.fromDaysAgo),
      effectiveTo: p.toDaysAgo === null ? null : daysAgo(p.toDaysAgo),
    })),
  );
  const inserted = await tx
    .insert(nodes)
    .values(data.nodes.map(({ migGpuIndexes: _m, ...n }) => n))
    .returning({ id: nodes.id, name: nodes.name });
  const idByName = new Map(inserted.map((n) => [n.name, n.id]));
  await tx.insert(nodeGpus).values(
    data.nodes.flatMap((n) =>
      Array.from({ length: n.gpuCount }, (_, gpuIndex) => ({
        nodeId: idByName.get(n.name) as string,
        gpuIndex,
        migEnabled: n.migGpuIndexes.includes(gpuIndex),
      })),
    ),
  );
  return { seeded: true };
}

/** For tests and scripts outside a transaction: seed the catalog once (no-op when it is already there). */
export async function ensureCatalogSeeded(opts: { now?: Date } = {}): Promise<void> {
  const { getDb } = await import("@/lib/db/client");
  await getDb().transaction((tx) => seedCatalog(tx, opts));
}
