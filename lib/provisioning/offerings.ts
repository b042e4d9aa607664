import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { FALLBACK_TDP_WATTS, type MigProfile } from "@/lib/db/schema";
import { SLICES_PER_GPU } from "./states";

export type PricingModelDb = "on_demand" | "spot" | "reserved_1m" | "reserved_1y";

/** An instance type with what placement, quota and the provider need from its GPU model. */
export type Offering = {
  instanceTypeId: string;
  gpuModelId: string;
  gpuModelName: string;
  vendor: string;
  gpuCount: number;
  migProfile: string | null;
  /** Slices of each GPU held: 7 for whole GPUs, the profile's slices for a MIG slice. */
  slicesPerGpu: number;
  /** GPU memory the instance gets per GPU (the profile's memory for a MIG slice). */
  gpuMemoryGib: number;
  tdpWatts: number;
};

export type OfferingRow = {
  id: string;
  gpu_model_id: string;
  gpu_count: number;
  mig_profile: string | null;
  name: string;
  vendor: string;
  memory_gib: number;
  tdp_watts: number | null;
  mig_profiles: MigProfile[];
};

function toOffering(r: OfferingRow): Offering {
  const profile = r.mig_profile ? r.mig_profiles.find((p) => p.name === r.mig_profile) : undefined;
  return {
    instanceTypeId: r.id,
    gpuModelId: r.gpu_model_id,
    gpuModelName: r.name,
    vendor: r.vendor,
    gpuCount: r.gpu_count,
    migProfile: r.mig_profile,
    slicesPerGpu: profile ? profile.slices : SLICES_PER_GPU,
    gpuMemoryGib: profile ? profile.memoryGib : r.memory_gib,
    tdpWatts: r.tdp_watts ?? FALLBACK_TDP_WATTS,
  };
}

/** The columns of an OfferingRow, from instance_types `t` joined with gpu_models `m`. */
export const OFFERING_COLUMNS = sql`t.id, t.gpu_model_id, t.gpu_count, t.mig_profile, m.name, m.vendor,
  m.memory_gib, m.tdp_watts, m.mig_profiles`;

const SELECT = sql`select ${OFFERING_COLUMNS} from instance_types t join gpu_models m on m.id = t.gpu_model_id`;

export async function loadOffering(exec: Executor, instanceTypeId: string): Promise<Offering | null> {
  const res = await exec.execute<OfferingRow>(sql`${SELECT} where t.id = ${instanceTypeId}`);
  return offeringOf(res.rows[0]);
}

/** The offering of a row read with OFFERING_COLUMNS (null when absent or not offerable). */
export function offeringOf(row: OfferingRow | undefined): Offering | null {
  if (!row?.id) return null;
  // A MIG type whose profile the model does not list is a catalog error; treat it as not offered.
  if (row.mig_profile && !row.mig_profiles.some((p) => p.name === row.mig_profile)) return null;
  return toOffering(row);
}

export async function loadAllOfferings(exec: Executor): Promise<Offering[]> {
  const res = await exec.execute<OfferingRow>(sql`${SELECT} order by t.id`);
  return res.rows
    .filter((r) => !r.mig_profile || r.mig_profiles.some((p) => p.name === r.mig_profile))
    .map(toOffering);
}

/** The price in force at `at`: effective_from <= at < effective_to (or no end). USD per hour, as a string. */
export async function currentPrice(
  exec: Executor,
  instanceTypeId: string,
  regionCode: string,
  pricingModel: PricingModelDb,
  at: Date,
): Promise<string | null> {
  const res = await exec.execute<{ usd_per_hour: string | null }>(
    sql`select ${currentPriceSql(instanceTypeId, regionCode, pricingModel, at)} as usd_per_hour`,
  );
  return res.rows[0]?.usd_per_hour ?? null;
}

/** currentPrice as a scalar subquery, for a statement that resolves it with other facts (launch). */
export function currentPriceSql(
  instanceTypeId: string,
  regionCode: string,
  pricingModel: PricingModelDb,
  at: Date,
): SQL {
  return sql`(select usd_per_hour from prices
    where instance_type_id = ${instanceTypeId} and region_code = ${regionCode}
      and pricing_model = ${pricingModel}
      and effective_from <= ${at} and (effective_to is null or effective_to > ${at})
    order by effective_from desc limit 1)`;
}

/** Every price in force at `at` for the given regions, keyed "type|region|model". */
export async function currentPrices(
  exec: Executor,
  regionCodes: readonly string[],
  at: Date,
): Promise<Map<string, string>> {
  if (regionCodes.length === 0) return new Map();
  const res = await exec.execute<{ k: string; usd_per_hour: string }>(sql`
    select distinct on (instance_type_id, region_code, pricing_model)
      instance_type_id || '|' || region_code || '|' || pricing_model as k, usd_per_hour
    from prices
    where region_code = any(${`{${regionCodes.join(",")}}`}::text[])
      and effective_from <= ${at} and (effective_to is null or effective_to > ${at})
    order by instance_type_id, region_code, pricing_model, effective_from desc`);
  return new Map(res.rows.map((r) => [r.k, r.usd_per_hour]));
}

export function priceKey(instanceTypeId: string, regionCode: string, pricingModel: PricingModelDb): string {
  return `${instanceTypeId}|${regionCode}|${pricingModel}`;
}
