import "server-only";
import { type SQL, sql } from "drizzle-orm";
import {
  type CatalogFilters,
  type CatalogSort,
  type PricingModel,
  type SortMetric,
  splitSort,
} from "./schemas";

const textArray = (xs: string[]) => sql`${sql.param(xs)}::text[]`;

/** Whitelisted summary column per pricing model: filter values never reach SQL as identifiers. */
const PRICE_COLUMN: Record<PricingModel, SQL> = {
  on_demand: sql.raw("s.on_demand"),
  spot: sql.raw("s.spot"),
  reserved_1m: sql.raw("s.reserved_1m"),
  reserved_1y: sql.raw("s.reserved_1y"),
};

/** WHERE terms on one offering_summaries row `s`. */
export function filterTerms(f: CatalogFilters): SQL[] {
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
 * The offerings on sale at `at` for the chosen pricing model that pass the filters, one narrow row each (`keys`),
 * read from offering_summaries (drizzle 0028: one row per offering and price period, kept by triggers on
 * prices, instance types, GPU models and regions): the period in force at `at` is the one row with
 * valid_from <= at < valid_to, so a price scheduled for later takes effect at its instant with nothing to
 * refresh, and every request, at whatever (injected) time, reads what the prices say then. No join: the plan
 * is one scan of the summary whatever the statistics, and only the page's rows are widened. Availability is
 * the summary's column too, kept from node_capacity at the commit of every transaction that changes it
 * (drizzle 0031); summing it per request from node_capacity for every offering was ~2 of a ~7 ms statement.
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
    ...(f.available ? [sql`s.available > 0`] : []),
  ];
  return sql`
  with ${gate ? sql`a as materialized (${gate} limit 1),` : sql``}
  keys as (
    select s.instance_type_id, s.region_code, s.valid_from, s.price, s.available, ${sortColumns(splitSort(f.sort).metric)}
    from (
      select s.*, ${price} as price
      from offering_summaries s
      where ${sql.join(where, sql` and `)}
    ) s
  )`;
}

/** The page's rows widened (specs, region, every pricing model's price) from the summary, with `allowed`. */
function widened(f: CatalogFilters, allowed: SQL): SQL {
  const sort2 = splitSort(f.sort).metric === "gpu" ? sql`, page.sort2` : sql``;
  return sql`select page.instance_type_id, page.region_code, page.price, page.available,
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

/** How many offerings pass the filters (for a page past the end, which has no row to carry the total). */
export function offeringsCountQuery(at: Date, f: CatalogFilters): SQL {
  return sql`${keysWith(at, f, filterTerms(f))}
    select count(*)::int as total from keys`;
}
