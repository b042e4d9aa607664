import "server-only";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { gpuModels, type MigProfile, regions } from "@/lib/db/schema";

export type Region = {
  code: string;
  name: string;
  city: string;
  country: string;
  jurisdiction: string;
  pue: number;
  gridGco2PerKwh: number;
};
export type JurisdictionGroup = { jurisdiction: string; regions: Region[] };

export type GpuModel = {
  id: string;
  name: string;
  vendor: string;
  memoryGib: number;
  bf16Tflops: number | null;
  memoryBandwidthGbps: number | null;
  tdpWatts: number | null;
  migProfiles: MigProfile[];
};

/** Active regions grouped by data-residency jurisdiction (groups and regions in a stable order). */
export async function listRegions(ctx: Pick<Ctx, "tx">): Promise<JurisdictionGroup[]> {
  const exec = readDb(ctx);
  const { rows } = await exec.execute<{ jurisdiction: string; regions: Region[] }>(sql`
    select ${regions.jurisdiction} as jurisdiction,
      json_agg(json_build_object(
        'code', ${regions.code}, 'name', ${regions.name}, 'city', ${regions.city},
        'country', ${regions.country}, 'jurisdiction', ${regions.jurisdiction},
        'pue', ${regions.pue}, 'gridGco2PerKwh', ${regions.gridGco2PerKwh}
      ) order by ${regions.name}) as regions
    from ${regions}
    where ${regions.active}
    group by ${regions.jurisdiction}
    order by ${regions.jurisdiction}`);
  return rows;
}

/** GPU models, largest memory first. */
export async function listGpuModels(ctx: Pick<Ctx, "tx">): Promise<GpuModel[]> {
  const exec = readDb(ctx);
  return exec.select().from(gpuModels).orderBy(desc(gpuModels.memoryGib), asc(gpuModels.name));
}

export async function getRegion(ctx: Pick<Ctx, "tx">, code: string): Promise<Region | null> {
  const exec = readDb(ctx);
  const [row] = await exec.select().from(regions).where(eq(regions.code, code)).limit(1);
  return row ?? null;
}
