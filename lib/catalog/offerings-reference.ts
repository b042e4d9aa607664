import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, nowOf, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";
import { type CapacitySource, capacityFrom } from "./capacity";
import { type OfferingPage, readOfferingPage } from "./offering-row";
import {
  type CatalogFilterInput,
  type CatalogFilters,
  type CatalogSort,
  catalogFiltersSchema,
  type PricingModel,
  type SortMetric,
  splitSort,
} from "./schemas";

/** Whitelisted column per pricing model: filter values never reach SQL as identifiers. */
const PRICE_COLUMN: Record<PricingModel, SQL> = {
  on_demand: sql.raw("o.on_demand"),
  spot: sql.raw("o.spot"),
  reserved_1m: sql.raw("o.reserved_1m"),
  reserved_1y: sql.raw("o.reserved_1y"),
};

function sortSql(sort: CatalogSort, price: SQL): SQL {
  const { metric, dir } = splitSort(sort);
  const exprs: Record<SortMetric, SQL> = {
    price,
    per_gpu: sql`${price} / o.gpu_share`,
    per_tflop: sql`${price} / nullif(o.gpu_share * o.bf16_tflops, 0)`,
    // Bigger instances of a model after smaller ones; MIG slices (a fraction of a GPU) first.
    gpu: sql`o.gpu_model_name ${sql.raw(dir)}, o.gpu_share`,
    memory: sql`o.gpu_memory_gib`,
    region: sql`o.region_name`,
    available: sql`o.available`,
    energy: sql`o.energy_kw`,
    co2: sql`o.energy_kw * o.grid_gco2_per_kwh`,
  };
  // Ties broken by price, then stable keys, so pages never overlap or skip rows.
  return sql`${exprs[metric]} ${sql.raw(dir)} nulls last, ${price} asc, o.region_code asc, o.instance_type_id asc`;
}

const textArray = (xs: string[]) => sql`${sql.param(xs)}::text[]`;

/*
 * The catalog's previous statement (until issue 13's paged form in offerings-sql.ts), kept as the reference the
 * tests compare listOfferings with (the same page for every filter and sort) and the benchmark's "before":
 * every offering is built wide (prices, specs, availability) and sorted with a window count before the page
 * is cut. `capacity: "recounted"` recounts availability from every GPU, as the catalog did before drizzle 0019.
 */

/**
 * Offerings (instance type × region with a price in force at `at`) with their prices per pricing model and
 * live availability, as one SQL statement. Availability counts only active nodes and subtracts every
 * allocation that has not been released (each node's free GPUs and slices are kept in node_capacity):
 *  - whole-GPU type: Σ over nodes of floor(free whole non-MIG GPUs / gpu_count)
 *  - MIG type:       Σ over MIG-mode GPUs of floor(free slices / profile slices)
 */
export function referenceOfferingsCte(
  at: Date,
  allowed: string[],
  where: SQL[],
  capacity: CapacitySource = "kept",
): SQL {
  const nodeCapacity = capacityFrom(capacity);
  const filters = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  return sql`
  with cur as (
    select p.instance_type_id, p.region_code,
      min(p.usd_per_hour) filter (where p.pricing_model = 'on_demand') as on_demand,
      min(p.usd_per_hour) filter (where p.pricing_model = 'spot') as spot,
      min(p.usd_per_hour) filter (where p.pricing_model = 'reserved_1m') as reserved_1m,
      min(p.usd_per_hour) filter (where p.pricing_model = 'reserved_1y') as reserved_1y
    from prices p
    where p.effective_from <= ${at} and (p.effective_to is null or p.effective_to > ${at})
    group by p.instance_type_id, p.region_code
  ),
  -- Availability from node_capacity (one row per node, kept by triggers: drizzle 0019), pre-aggregated per
  -- (region, model, size) so offerings pick their figure with a hash join.
  whole_avail as (
    select c.region_code, c.gpu_model_id, k.gpu_count, sum(c.whole_free / k.gpu_count)::int as available
    from ${nodeCapacity} c
    join (select distinct gpu_model_id, gpu_count from instance_types where mig_profile is null) k
      on k.gpu_model_id = c.gpu_model_id
    where c.active and c.whole_free > 0
    group by c.region_code, c.gpu_model_id, k.gpu_count
  ),
  mig_avail as (
    select c.region_code, c.gpu_model_id, s.slices, sum(c.mig_free[s.slices])::int as available
    from ${nodeCapacity} c cross join generate_series(1, 7) as s(slices)
    where c.active and c.mig_free[1] > 0
    group by c.region_code, c.gpu_model_id, s.slices
  ),
  -- Each model's MIG profiles once (a handful of rows), joined by name instead of unpacked per offering.
  mig_profiles as (
    select distinct on (gm.id, e.value->>'name') gm.id as gpu_model_id, e.value->>'name' as name,
      (e.value->>'slices')::int as slices, (e.value->>'memoryGib')::int as memory_gib
    from gpu_models gm cross join jsonb_array_elements(gm.mig_profiles) with ordinality as e(value, n)
    order by gm.id, e.value->>'name', e.n
  ),
  base as (
    select it.id as instance_type_id, it.gpu_model_id, it.gpu_count, it.mig_profile, it.vcpus, it.ram_gib,
      it.local_disk_gib, r.code as region_code, r.name as region_name, r.city, r.country, r.jurisdiction,
      gm.name as gpu_model_name, gm.memory_gib as gpu_model_memory_gib, gm.bf16_tflops,
      gm.memory_bandwidth_gbps, gm.tdp_watts, gm.market_median_usd_per_gpu_hour, mp.slices as mig_slices,
      r.pue, r.grid_gco2_per_kwh,
      -- Facility power at the GPUs' limit: TDP × share of the GPUs × the region's PUE (an estimate, no host).
      coalesce(gm.tdp_watts, ${FALLBACK_TDP_WATTS}) / 1000.0 * (case when it.mig_profile is null
        then it.gpu_count::numeric else mp.slices / 7.0 end) * r.pue as energy_kw,
      coalesce(mp.memory_gib, gm.memory_gib) as gpu_memory_gib,
      case when it.mig_profile is null then it.gpu_count::numeric else mp.slices / 7.0 end as gpu_share,
      cur.on_demand, cur.spot, cur.reserved_1m, cur.reserved_1y,
      (cardinality(${textArray(allowed)}) = 0 or r.jurisdiction = any(${textArray(allowed)})) as allowed,
      coalesce(case when it.mig_profile is null then wa.available else ma.available end, 0) as available
    from cur
    join instance_types it on it.id = cur.instance_type_id
    join regions r on r.code = cur.region_code and r.active
    join gpu_models gm on gm.id = it.gpu_model_id
    left join mig_profiles mp on mp.gpu_model_id = it.gpu_model_id and mp.name = it.mig_profile
    left join whole_avail wa on it.mig_profile is null and wa.region_code = r.code
      and wa.gpu_model_id = it.gpu_model_id and wa.gpu_count = it.gpu_count
    left join mig_avail ma on it.mig_profile is not null and ma.region_code = r.code
      and ma.gpu_model_id = it.gpu_model_id and ma.slices = mp.slices
    ${filters}
  ),
  o as (select * from base)`;
}

/** WHERE terms on `base` (columns of instance_types it, regions r, gpu models gm, current prices cur). */
export function referenceFilterTerms(f: CatalogFilters): SQL[] {
  const price = sql.raw(`cur.${f.pricing}`);
  const terms: SQL[] = [sql`${price} is not null`];
  if (f.region.length) terms.push(sql`r.code = any(${textArray(f.region)})`);
  if (f.jurisdiction.length) terms.push(sql`r.jurisdiction = any(${textArray(f.jurisdiction)})`);
  if (f.gpu.length) terms.push(sql`it.gpu_model_id = any(${textArray(f.gpu)})`);
  if (f.minMemoryGib) terms.push(sql`coalesce(mp.memory_gib, gm.memory_gib) >= ${f.minMemoryGib}`);
  if (f.gpuCount === "mig") terms.push(sql`it.mig_profile is not null`);
  else if (f.gpuCount) terms.push(sql`it.mig_profile is null and it.gpu_count = ${Number(f.gpuCount)}`);
  if (f.maxPrice !== undefined) terms.push(sql`${price} <= ${f.maxPrice}`);
  return terms;
}

export function referencePageQuery(cte: SQL, f: CatalogFilters): SQL {
  const availableOnly = f.available ? sql`where o.available > 0` : sql``;
  return sql`${cte}
    select o.*, ${PRICE_COLUMN[f.pricing]} as price, count(*) over ()::int as total
    from o ${availableOnly}
    order by ${sortSql(f.sort, PRICE_COLUMN[f.pricing])}
    limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}`;
}

/** listOfferings as it was, on the reference statement (the same access check, parsing and mapping). */
export async function listOfferingsReference(
  ctx: Ctx,
  orgSlug: string,
  input: CatalogFilterInput = {},
  capacity: CapacitySource = "kept",
): Promise<OfferingPage> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const filters = parseInput(catalogFiltersSchema, input);
  const allowed = org.allowedJurisdictions;
  const cte = referenceOfferingsCte(nowOf(ctx), allowed, referenceFilterTerms(filters), capacity);
  const availableOnly = filters.available ? sql`where o.available > 0` : sql``;
  return readOfferingPage(readDb(ctx), filters, allowed, {
    page: referencePageQuery(cte, filters),
    count: () => sql`${cte} select count(*)::int as total from o ${availableOnly}`,
  });
}
