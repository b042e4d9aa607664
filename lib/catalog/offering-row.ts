import "server-only";
import type { SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { type CatalogFilters, PRICING_MODELS, type PricingModel } from "./schemas";

export type DisallowedReason = {
  code: "outside_data_residency";
  /** The organization's allowed jurisdictions, e.g. ["EU"]. */
  allowedJurisdictions: string[];
  message: string;
};

export type Offering = {
  instanceTypeId: string;
  regionCode: string;
  regionName: string;
  city: string;
  country: string;
  jurisdiction: string;
  gpuModelId: string;
  gpuModelName: string;
  /** Whole GPUs; 1 for a MIG slice. */
  gpuCount: number;
  migProfile: string | null;
  /** Compute slices (of 7) for a MIG slice, else null. */
  migSlices: number | null;
  /** Memory one device sees: the GPU's, or the MIG profile's. */
  gpuMemoryGib: number;
  /** Dense BF16 TFLOPS of one whole GPU; null where not verified. */
  bf16TflopsPerGpu: number | null;
  memoryBandwidthGbps: number | null;
  tdpWatts: number | null;
  vcpus: number;
  ramGib: number;
  localDiskGib: number;
  /** USD per hour for the whole instance in force now, per pricing model (null = not sold that way). */
  prices: Record<PricingModel, number | null>;
  /** Price of the pricing model the list was filtered/sorted by. */
  price: number;
  pricePerGpu: number;
  pricePerTflop: number | null;
  /** Instances of this type that could be placed right now. */
  available: number;
  /** Estimated facility energy per hour at the GPUs' power limit (TDP × GPU share × PUE), kWh. */
  energyKwh: number;
  /** True when the model publishes no TDP and a fallback power limit was assumed. */
  energyEstimatedTdp: boolean;
  /** Estimated grams of CO₂e per hour: energy × the region's grid carbon intensity. */
  co2eGrams: number;
  /** Public market median on-demand USD per GPU-hour for this GPU model; null where unknown. */
  marketMedianPerGpu: number | null;
  /** pricePerGpu relative to that median: -0.15 is 15 % below it; null where unknown. */
  vsMarket: number | null;
  allowed: boolean;
  disallowedReason: DisallowedReason | null;
};

/** One row of the catalog statements (snake_case columns, as PostgreSQL returns them). */
export type OfferingRow = Record<string, unknown>;
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** An offering from its catalog row: prices per GPU and per TFLOP, energy and CO₂e derived here. */
export function toOffering(r: OfferingRow, allowedJurisdictions: string[]): Offering {
  const prices = Object.fromEntries(PRICING_MODELS.map((m) => [m, n(r[m])])) as Record<
    PricingModel,
    number | null
  >;
  const price = Number(r.price);
  const share = Number(r.gpu_share);
  const tflops = n(r.bf16_tflops);
  const allowed = Boolean(r.allowed);
  const energyKwh = Number(r.energy_kw);
  const median = n(r.market_median_usd_per_gpu_hour);
  return {
    instanceTypeId: String(r.instance_type_id),
    regionCode: String(r.region_code),
    regionName: String(r.region_name),
    city: String(r.city),
    country: String(r.country),
    jurisdiction: String(r.jurisdiction),
    gpuModelId: String(r.gpu_model_id),
    gpuModelName: String(r.gpu_model_name),
    gpuCount: Number(r.gpu_count),
    migProfile: (r.mig_profile as string | null) ?? null,
    migSlices: n(r.mig_slices),
    gpuMemoryGib: Number(r.gpu_memory_gib),
    bf16TflopsPerGpu: tflops,
    memoryBandwidthGbps: n(r.memory_bandwidth_gbps),
    tdpWatts: n(r.tdp_watts),
    vcpus: Number(r.vcpus),
    ramGib: Number(r.ram_gib),
    localDiskGib: Number(r.local_disk_gib),
    prices,
    price,
    pricePerGpu: price / share,
    pricePerTflop: tflops ? price / (share * tflops) : null,
    available: Number(r.available),
    energyKwh,
    energyEstimatedTdp: n(r.tdp_watts) === null,
    co2eGrams: energyKwh * Number(r.grid_gco2_per_kwh),
    marketMedianPerGpu: median,
    vsMarket: median ? price / share / median - 1 : null,
    allowed,
    disallowedReason: allowed
      ? null
      : {
          code: "outside_data_residency",
          allowedJurisdictions,
          message: `Outside your organization's data residency (${allowedJurisdictions.join(", ")} only)`,
        },
  };
}

export type OfferingPage = {
  items: Offering[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  filters: CatalogFilters;
  allowedJurisdictions: string[];
};

/**
 * Runs a page statement (or takes its rows) whose rows carry the filtered total; a page past the end has no row to carry it, so
 * the count statement runs then (only then). `prepared`: both run as prepared statements (one parse per
 * connection and filter shape, then a generic plan) — for listOfferings, whose planning took ~1.5 ms of its
 * ~10 and whose plan has no join for a parameter's value to change (offerings look their facts up).
 */
export async function readOfferingPage(
  exec: Executor,
  filters: CatalogFilters,
  allowed: string[],
  statements: { page: SQL | OfferingRow[]; count: () => SQL; prepared?: boolean },
): Promise<OfferingPage> {
  const run = <T extends Record<string, unknown>>(q: SQL) =>
    statements.prepared ? executePrepared<T>(exec, q) : exec.execute<T>(q);
  // `page`: the page statement, or its rows already read (listOfferings folds the access check into it).
  const rows = Array.isArray(statements.page)
    ? statements.page
    : (await run<OfferingRow>(statements.page)).rows;
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length && filters.page > 1) {
    const counted = await run<{ total: number }>(statements.count());
    total = Number(counted.rows[0]?.total ?? 0);
  }
  return {
    items: rows.map((r) => toOffering(r, allowed)),
    total,
    page: filters.page,
    pageSize: filters.pageSize,
    pageCount: Math.max(1, Math.ceil(total / filters.pageSize)),
    filters,
    allowedJurisdictions: allowed,
  };
}
