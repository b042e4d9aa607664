/**
 * listOfferings's statement at 1359a10, before offering_summaries.available (drizzle 0031, issue 13), kept for
 * the bench only: the summary's scan with every offering's availability looked up, when the filter or the sort
 * needs it, in one jsonb object summed per request from node_capacity per capacity key (the page's rows
 * otherwise summing theirs when widened). catalog-offerings times it (the gate folded in, prepared, as
 * listOfferings ran it) beside today's listOfferings in the same run; the mapping of its rows is left out.
 */
import { type SQL, sql } from "drizzle-orm";
import { judgeOrgAccess, orgAccessSql } from "@/lib/access";
import {
  type CatalogFilterInput,
  type CatalogFilters,
  type CatalogSort,
  catalogFiltersSchema,
  type PricingModel,
  type SortMetric,
  splitSort,
} from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";

const textArray = (xs: string[]) => sql`${sql.param(xs)}::text[]`;

/** Whitelisted summary column per pricing model: filter values never reach SQL as identifiers. */
const PRICE_COLUMN: Record<PricingModel, SQL> = {
  on_demand: sql.raw("s.on_demand"),
  spot: sql.raw("s.spot"),
  reserved_1m: sql.raw("s.reserved_1m"),
  reserved_1y: sql.raw("s.reserved_1y"),
};

/** WHERE terms on one offering_summaries row `s`. */
function filterTerms(f: CatalogFilters): SQL[] {
  const terms: SQL[] = [];
  if (f.region.length) terms.push(sql`s.region_code = any(${textArray(f.region)})`);
  if (f.jurisdiction.length) terms.push(sql`s.jurisdiction = any(${textArray(f.jurisdiction)})`);
  if (f.gpu.length) terms.push(sql`s.gpu_model_id = any(${textArray(f.gpu)})`);
  if (f.minMemoryGib) terms.push(sql`s.gpu_memory_gib >= ${f.minMemoryGib}`);
  if (f.gpuCount === "mig") terms.push(sql`s.mig_profile is not null`);
  else if (f.gpuCount) terms.push(sql`s.mig_profile is null and s.gpu_count = ${Number(f.gpuCount)}`);
  if (f.maxPrice !== undefined) terms.push(sql`${PRICE_COLUMN[f.pricing]} <= ${f.maxPrice}`);
  return terms;
}

/**
 * Sort columns over `keys`, the same expressions over the same column types as the reference statement
 * (offerings-reference.ts) and therefore the same values and order, ties included.
 */
function sortColumns(metric: SortMetric): SQL {
  switch (metric) {
    case "price":
      return sql`s.price as sort1`;
    case "per_gpu":
      return sql`s.price / s.gpu_share as sort1`;
    case "per_tflop":
      return sql`s.price / nullif(s.gpu_share * s.bf16_tflops, 0) as sort1`;
    case "gpu":
      // Bigger instances of a model after smaller ones; MIG slices (a fraction of a GPU) first.
      return sql`s.gpu_model_name as sort1, s.gpu_share as sort2`;
    case "memory":
      return sql`s.gpu_memory_gib as sort1`;
    case "region":
      return sql`s.region_name as sort1`;
    case "available":
      return sql`s.available as sort1`;
    case "energy":
      return sql`s.energy_kw as sort1`;
    case "co2":
      return sql`s.energy_kw * s.grid_gco2_per_kwh as sort1`;
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

/**
 * Free capacity per capacity key ("<region>/<model>/w<n>" for n whole GPUs, "…/m<slices>" for a MIG slice) as
 * one jsonb object, summed from node_capacity (one row per node, kept by triggers: drizzle 0019) — a few hundred
 * narrow rows — and looked up by each offering's key; (select …) runs once (an init plan). Only active nodes
 * count, and every allocation not yet released is already subtracted there:
 *  - whole-GPU type: Σ over nodes of floor(free whole non-MIG GPUs / gpu_count)
 *  - MIG type:       Σ over MIG-mode GPUs of floor(free slices / profile slices)
 * A node with w free whole GPUs adds to the keys w1..ww; a type bigger than every node's free count finds no
 * key and reads 0.
 */
const capacitySql = sql`
  select coalesce(jsonb_object_agg(region_code || '/' || gpu_model_id || kind || n, available), '{}'::jsonb) as m
  from (
    select c.region_code, c.gpu_model_id, '/w' as kind, n, sum(c.whole_free / n) as available
    from node_capacity c cross join lateral generate_series(1, c.whole_free) as n
    where c.active and c.whole_free > 0
    group by c.region_code, c.gpu_model_id, n
    union all
    select c.region_code, c.gpu_model_id, '/m', n, sum(c.mig_free[n])
    from node_capacity c cross join generate_series(1, 7) as n
    where c.active and c.mig_free[1] > 0
    group by c.region_code, c.gpu_model_id, n
  ) per_key`;

/** Whether the keys need every offering's availability (to filter or sort by it), or only the page's do. */
const keysNeedAvailable = (f: CatalogFilters) =>
  f.available === true || splitSort(f.sort).metric === "available";

const SUMMARY_COLUMNS_1359A10 =
  "instance_type_id, region_code, valid_from, valid_to, on_demand, spot, reserved_1m, reserved_1y, gpu_model_id, gpu_count, mig_profile, vcpus, ram_gib, local_disk_gib, gpu_model_name, gpu_model_memory_gib, bf16_tflops, memory_bandwidth_gbps, tdp_watts, market_median_usd_per_gpu_hour, mig_slices, gpu_memory_gib, gpu_share, energy_kw, region_name, city, country, jurisdiction, pue, grid_gco2_per_kwh, region_active, capacity_key".split(
    ", ",
  );

/**
 * The offerings on sale at `at` for the chosen pricing model that pass the filters, one narrow row each (`keys`),
 * read from offering_summaries (drizzle 0028: one row per offering and price period, kept by triggers on
 * prices, instance types, GPU models and regions): the period in force at `at` is the one row with
 * valid_from <= at < valid_to, so a price scheduled for later takes effect at its instant with nothing to
 * refresh, and every request, at whatever (injected) time, reads what the prices say then. No join: the plan
 * is one scan of the summary whatever the statistics, and only the page's rows are widened. Availability is
 * looked up per offering (`cap`) only when the filter or the sort needs it; otherwise the page's rows sum
 * theirs from node_capacity when widened (building the lookup object was ~2 of a ~5 ms statement).
 */
function keysWith(at: Date, f: CatalogFilters, terms: SQL[], gate?: SQL): SQL {
  const price = PRICE_COLUMN[f.pricing];
  const where = [
    sql`s.valid_from <= ${at}`,
    sql`s.valid_to > ${at}`,
    sql`s.region_active`,
    sql`${price} is not null`,
    ...terms,
    // With the gate folded in, nothing is read for an actor it refuses (one check, an init plan).
    ...(gate ? [sql`exists (select 1 from a)`] : []),
  ];
  const withAvailable = keysNeedAvailable(f);
  return sql`
  with ${gate ? sql`a as materialized (${gate} limit 1),` : sql``}
  ${withAvailable ? sql`cap as materialized (${capacitySql}),` : sql``}
  keys as (
    select s.instance_type_id, s.region_code, s.valid_from, s.price, s.available, ${sortColumns(splitSort(f.sort).metric)}
    from (
      -- The summary's columns at 1359a10 (s.* then; today's also holds the kept figure, drizzle 0031).
      select ${sql.raw(SUMMARY_COLUMNS_1359A10.map((c) => `s.${c}`).join(", "))}, ${price} as price,
        ${withAvailable ? sql`coalesce(((select cap.m from cap) ->> s.capacity_key)::int, 0)` : sql`null::int`} as available
      from offering_summaries s
      where ${sql.join(where, sql` and `)}
      -- Not flattened into the sort and the filter, which would look each offering's availability up again.
      ${withAvailable ? sql`offset 0` : sql``}
    ) s
    ${f.available ? sql`where s.available > 0` : sql``}
  )`;
}

/**
 * A page row's availability summed from its region's and model's node_capacity rows (the rule of `capacitySql`),
 * when the keys did not carry it.
 */
const pageAvailableSql = sql`coalesce(page.available, (
    select case when s.mig_profile is null then sum(c.whole_free / s.gpu_count) else sum(c.mig_free[s.mig_slices]) end
    from node_capacity c
    where c.region_code = s.region_code and c.gpu_model_id = s.gpu_model_id and c.active
  )::int, 0)`;

/** The page's rows widened (specs, region, every pricing model's price) from the summary, with `allowed`. */
function widened(f: CatalogFilters, allowed: SQL): SQL {
  const sort2 = splitSort(f.sort).metric === "gpu" ? sql`, page.sort2` : sql``;
  return sql`select page.instance_type_id, page.region_code, page.price, ${pageAvailableSql} as available,
    page.total, page.sort1${sort2},
    s.gpu_model_id, s.gpu_count, s.mig_profile, s.vcpus, s.ram_gib, s.local_disk_gib, s.gpu_model_name,
    s.gpu_model_memory_gib, s.bf16_tflops, s.memory_bandwidth_gbps, s.tdp_watts,
    s.market_median_usd_per_gpu_hour, s.mig_slices, s.gpu_memory_gib, s.gpu_share, s.energy_kw,
    s.region_name, s.city, s.country, s.jurisdiction, s.pue, s.grid_gco2_per_kwh,
    (cardinality(${allowed}) = 0 or s.jurisdiction = any(${allowed})) as allowed,
    s.on_demand, s.spot, s.reserved_1m, s.reserved_1y
  from page
  join offering_summaries s on s.instance_type_id = page.instance_type_id
    and s.region_code = page.region_code and s.valid_from = page.valid_from`;
}

/**
 * One page of offerings, widened, in the page's order; every row carries the filtered total. `viewer`: the
 * organization's allowed jurisdictions, or the gate's read (lib/access orgAccessSql) to fold the access check
 * into the same statement — then the statement returns one row per offering with the gate's columns (one
 * row with null offering columns when the page is empty), and nothing when the gate reads no row.
 */
export function offeringsPageQuery(
  at: Date,
  viewer: string[] | SQL,
  f: CatalogFilters,
  terms: SQL[] = filterTerms(f),
): SQL {
  const gate = Array.isArray(viewer) ? undefined : viewer;
  const page = sql`${keysWith(at, f, terms, gate)},
  page as materialized (
    select keys.*, count(*) over ()::int as total
    from keys
    order by ${orderBy(f.sort, "keys")}
    limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}
  )`;
  if (Array.isArray(viewer))
    return sql`${page}
    ${widened(f, textArray(viewer))}
    order by ${orderBy(f.sort, "page")}`;
  return sql`${page}
    select a.*, o.* from a
    left join lateral (${widened(f, sql`a.org_allowed_jurisdictions`)}) o on true
    order by ${orderBy(f.sort, "o")}`;
}

/** The page as listOfferings read it at 1359a10: the gate folded into the page statement, prepared. */
export async function offeringsPage1359a10(ctx: Ctx, orgSlug: string, input: CatalogFilterInput) {
  const filters = catalogFiltersSchema.parse(input);
  const access = orgAccessSql(ctx, orgSlug);
  if (!access) throw new Error("the bench reads as a user");
  const { rows } = await executePrepared(readDb(ctx), offeringsPageQuery(new Date(), access, filters));
  judgeOrgAccess(ctx, rows[0] as Parameters<typeof judgeOrgAccess>[1], "viewer");
  return rows;
}
