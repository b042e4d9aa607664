/**
 * listOfferings's statement at b39ce78, before offering_summaries (drizzle 0028, issue 13), kept for the bench
 * only: per request, the prices in force aggregated per offering, each offering's type and region facts looked up
 * from one jsonb object per relation, availability summed from node_capacity; only the page's rows widened.
 * catalog-offerings times it (the access gate, then the page statement prepared, as listOfferings ran it)
 * beside today's listOfferings in the same run; the mapping of its rows is left out.
 */
import { type SQL, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import {
  type CatalogFilterInput,
  type CatalogFilters,
  type CatalogSort,
  catalogFiltersSchema,
  type SortMetric,
  splitSort,
} from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";

const textArray = (xs: string[]) => sql`${sql.param(xs)}::text[]`;

/** WHERE terms, split by the relation they narrow: instance types (`it`, `gm`, `mp`) or regions (`r`). */
type OfferingTerms = { type: SQL[]; region: SQL[] };

function filterTerms(f: CatalogFilters): OfferingTerms {
  const type: SQL[] = [];
  const region: SQL[] = [];
  if (f.region.length) region.push(sql`r.code = any(${textArray(f.region)})`);
  if (f.jurisdiction.length) region.push(sql`r.jurisdiction = any(${textArray(f.jurisdiction)})`);
  if (f.gpu.length) type.push(sql`it.gpu_model_id = any(${textArray(f.gpu)})`);
  if (f.minMemoryGib) type.push(sql`coalesce(mp.memory_gib, gm.memory_gib) >= ${f.minMemoryGib}`);
  if (f.gpuCount === "mig") type.push(sql`it.mig_profile is not null`);
  else if (f.gpuCount) type.push(sql`it.mig_profile is null and it.gpu_count = ${Number(f.gpuCount)}`);
  return { type, region };
}

/**
 * What a sort metric needs per offering: facts of its instance type and of its region (computed once per type
 * and region, then looked up by each offering as `lk.tf` = [capacity key, ...type] and `lk.rf` = [...region]),
 * and its sort columns over them. Each fact is cast back to the type it has in t or r, so sort values, and
 * therefore the order, are exactly those of the joined columns.
 */
type SortSpec = { type: SQL[]; region: SQL[]; columns: SQL };
const tf = (i: number, type: string) => sql.raw(`(lk.tf ->> ${i})::${type}`);
const rf = (i: number, type: string) => sql.raw(`(lk.rf ->> ${i})::${type}`);

/** An offering's availability from `cap`; (select …) runs once (an init plan), so no row carries the object. */
const availableSql = sql`coalesce(((select cap.m from cap) ->> (lk.region_code || '/' || ${tf(0, "text")}))::int, 0)`;

function sortSpec(metric: SortMetric): SortSpec {
  const one = (columns: SQL, type: SQL[] = [], region: SQL[] = []) => ({
    type,
    region,
    columns: sql`${columns} as sort1`,
  });
  switch (metric) {
    case "price":
      return one(sql`lk.price`);
    case "per_gpu":
      return one(sql`lk.price / ${tf(1, "numeric")}`, [sql`t.gpu_share`]);
    case "per_tflop":
      return one(sql`lk.price / ${tf(1, "float8")}`, [sql`nullif(t.gpu_share * t.bf16_tflops, 0)`]);
    case "gpu":
      // Bigger instances of a model after smaller ones; MIG slices (a fraction of a GPU) first.
      return {
        type: [sql`t.gpu_model_name`, sql`t.gpu_share`],
        region: [],
        columns: sql`${tf(1, "text")} as sort1, ${tf(2, "numeric")} as sort2`,
      };
    case "memory":
      return one(tf(1, "int"), [sql`t.gpu_memory_gib`]);
    case "region":
      return one(rf(0, "text"), [], [sql`r.region_name`]);
    case "available":
      return one(availableSql);
    case "energy":
      return one(sql`${tf(1, "numeric")} * ${rf(0, "real")}`, [sql`t.gpu_kw`], [sql`r.pue`]);
    case "co2":
      return one(
        sql`${tf(1, "numeric")} * ${rf(0, "real")} * ${rf(1, "real")}`,
        [sql`t.gpu_kw`],
        [sql`r.pue`, sql`r.grid_gco2_per_kwh`],
      );
  }
}

/** ORDER BY over a relation with keys' columns; ties broken by price, then stable keys (pages never overlap). */
function orderBy(sort: CatalogSort, rel: string): SQL {
  const { metric, dir } = splitSort(sort);
  const c = (col: string) => sql.raw(`${rel}.${col}`);
  const d = sql.raw(dir);
  const lead =
    metric === "gpu"
      ? sql`${c("sort1")} ${d}, ${c("sort2")} ${d} nulls last`
      : sql`${c("sort1")} ${d} nulls last`;
  return sql`${lead}, ${c("price")} asc, ${c("region_code")} asc, ${c("instance_type_id")} asc`;
}

const where = (terms: SQL[], always: SQL) => sql`where ${sql.join([always, ...terms], sql` and `)}`;

/**
 * The catalog in two steps, one statement. `keys` holds one narrow row per offering on sale (instance type ×
 * region with a price for the chosen pricing model in force at `at`) that passes the filters: its price, its
 * availability and its sort columns; only the page's rows are then widened with specs, region and every
 * pricing model's price. Everything per instance type (`t`) or per region (`r`) is computed once for the few
 * hundred types and regions, not per offering.
 *
 * No offering is joined to t or r: each looks up its type's and region's facts (`facts`: one jsonb object per
 * relation, keyed by id, holding the capacity key and what the sort needs) and is dropped when either is
 * missing (filtered out). The plan is then one scan and aggregate of the prices in force, whatever the
 * statistics say: on a freshly loaded (never analyzed) catalog, the prices in force were estimated at one row
 * (pricing-model equality and the time range at default selectivity) and every offering was joined to t by
 * a nested loop over it — 60–130 ms where the analyzed plan took ~10 (issue 13).
 *
 * Availability comes from node_capacity (one row per node, kept by triggers: drizzle 0019), summed per
 * capacity key into one jsonb object that each offering looks up by its key: a lookup, not a join, so no row
 * estimate can turn it into a nested loop over every offering (multi-column joins here were estimated at one
 * row and planned that way). Only active nodes count, and every allocation not yet released is subtracted:
 *  - whole-GPU type: Σ over nodes of floor(free whole non-MIG GPUs / gpu_count)   key <model>/w<gpu_count>
 *  - MIG type:       Σ over MIG-mode GPUs of floor(free slices / profile slices)   key <model>/m<slices>
 */
function offeringsWith(at: Date, allowed: string[], f: CatalogFilters, terms: OfferingTerms): SQL {
  const nodeCapacity = sql`node_capacity`;
  const spec = sortSpec(splitSort(f.sort).metric);
  const share = sql`case when it.mig_profile is null then it.gpu_count::numeric else mp.slices / 7.0 end`;
  return sql`
  with t as materialized (
    select it.id as instance_type_id, it.gpu_model_id, it.gpu_count, it.mig_profile, it.vcpus, it.ram_gib,
      it.local_disk_gib, gm.name as gpu_model_name, gm.memory_gib as gpu_model_memory_gib, gm.bf16_tflops,
      gm.memory_bandwidth_gbps, gm.tdp_watts, gm.market_median_usd_per_gpu_hour, mp.slices as mig_slices,
      coalesce(mp.memory_gib, gm.memory_gib) as gpu_memory_gib, ${share} as gpu_share,
      -- Facility power at the GPUs' limit before the region's PUE: TDP × share of the GPUs (no host).
      coalesce(gm.tdp_watts, ${FALLBACK_TDP_WATTS}) / 1000.0 * ${share} as gpu_kw,
      it.gpu_model_id || case when it.mig_profile is null then '/w' || it.gpu_count else '/m' || mp.slices end
        as capacity_key
    from instance_types it
    join gpu_models gm on gm.id = it.gpu_model_id
    -- A MIG type's profile (its first entry of that name) from its model's list.
    left join lateral (
      select (e.value->>'slices')::int as slices, (e.value->>'memoryGib')::int as memory_gib
      from jsonb_array_elements(gm.mig_profiles) with ordinality as e(value, n)
      where it.mig_profile is not null and e.value->>'name' = it.mig_profile
      order by e.n limit 1
    ) mp on true
    ${terms.type.length ? sql`where ${sql.join(terms.type, sql` and `)}` : sql``}
  ),
  r as materialized (
    select r.code as region_code, r.name as region_name, r.city, r.country, r.jurisdiction, r.pue,
      r.grid_gco2_per_kwh,
      (cardinality(${textArray(allowed)}) = 0 or r.jurisdiction = any(${textArray(allowed)})) as allowed
    from regions r
    ${where(terms.region, sql`r.active`)}
  ),
  cap as materialized (
    select jsonb_object_agg(k, available) as m from (
      select c.region_code || '/' || c.gpu_model_id || '/w' || s.n as k, sum(c.whole_free / s.n) as available
      from ${nodeCapacity} c
      join (select distinct gpu_model_id, gpu_count as n from t where mig_profile is null) s
        on s.gpu_model_id = c.gpu_model_id
      where c.active and c.whole_free > 0 and c.region_code in (select region_code from r)
      group by c.region_code, c.gpu_model_id, s.n
      union all
      select c.region_code || '/' || c.gpu_model_id || '/m' || s.n, sum(c.mig_free[s.n])
      from ${nodeCapacity} c cross join generate_series(1, 7) as s(n)
      where c.active and c.mig_free[1] > 0 and c.region_code in (select region_code from r)
        and c.gpu_model_id in (select gpu_model_id from t where mig_profile is not null)
      group by c.region_code, c.gpu_model_id, s.n
    ) per_key
  ),
  cur as (
    select p.instance_type_id, p.region_code, min(p.usd_per_hour) as price
    from prices p
    where p.pricing_model = ${f.pricing} and p.effective_from <= ${at}
      and (p.effective_to is null or p.effective_to > ${at})
    group by p.instance_type_id, p.region_code
  ),
  facts as materialized (
    select
      (select jsonb_object_agg(t.instance_type_id, jsonb_build_array(${sql.join([sql`t.capacity_key`, ...spec.type], sql`, `)}))
        from t) as types,
      (select jsonb_object_agg(r.region_code, jsonb_build_array(${sql.join(spec.region, sql`, `)})) from r) as regions
  ),
  keys as (
    select lk.instance_type_id, lk.region_code, lk.price, ${availableSql} as available, ${spec.columns}
    from (
      select cur.instance_type_id, cur.region_code, cur.price,
        (select types from facts) -> cur.instance_type_id as tf, (select regions from facts) -> cur.region_code as rf
      from cur
      ${f.maxPrice !== undefined ? sql`where cur.price <= ${f.maxPrice}` : sql``}
      offset 0
    ) lk
    where lk.tf is not null and lk.rf is not null
  )`;
}

const availableOnly = (f: CatalogFilters) => (f.available ? sql`where keys.available > 0` : sql``);

/** One page of offerings, widened, in the page's order; every row carries the filtered total. */
export function offeringsPageQuery(at: Date, allowed: string[], f: CatalogFilters): SQL {
  const terms = filterTerms(f);
  const models = ["on_demand", "spot", "reserved_1m", "reserved_1y"] as const;
  return sql`${offeringsWith(at, allowed, f, terms)},
  page as materialized (
    select keys.*, count(*) over ()::int as total
    from keys ${availableOnly(f)}
    order by ${orderBy(f.sort, "keys")}
    limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}
  )
  select page.instance_type_id, page.region_code, page.price, page.available, page.total,
    t.gpu_model_id, t.gpu_count, t.mig_profile, t.vcpus, t.ram_gib, t.local_disk_gib, t.gpu_model_name,
    t.gpu_model_memory_gib, t.bf16_tflops, t.memory_bandwidth_gbps, t.tdp_watts,
    t.market_median_usd_per_gpu_hour, t.mig_slices, t.gpu_memory_gib, t.gpu_share, t.gpu_kw * r.pue as energy_kw,
    r.region_name, r.city, r.country, r.jurisdiction, r.pue, r.grid_gco2_per_kwh, r.allowed, pr.*
  from page
  join t on t.instance_type_id = page.instance_type_id
  join r on r.region_code = page.region_code
  cross join lateral (
    select ${sql.join(
      models.map((m) => sql`min(p.usd_per_hour) filter (where p.pricing_model = ${m}) as ${sql.raw(m)}`),
      sql`, `,
    )}
    from prices p
    where p.instance_type_id = page.instance_type_id and p.region_code = page.region_code
      and p.effective_from <= ${at} and (p.effective_to is null or p.effective_to > ${at})
  ) pr
  order by ${orderBy(f.sort, "page")}`;
}

/** The page as listOfferings read it at b39ce78: the gate, then the page statement, prepared. */
export async function offeringsPageB39ce78(ctx: Ctx, orgSlug: string, input: CatalogFilterInput) {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const filters = catalogFiltersSchema.parse(input);
  return executePrepared(readDb(ctx), offeringsPageQuery(new Date(), org.allowedJurisdictions, filters));
}
