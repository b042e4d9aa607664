/** The catalog's fixed choices, free of zod: client components import this module by path. */
export const PRICING_MODELS = ["on_demand", "spot", "reserved_1m", "reserved_1y"] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** What the catalog can be ordered by: each is sortable ascending and descending (`<metric>_asc|_desc`). */
export const SORT_METRICS = [
  "price",
  "per_gpu",
  "per_tflop",
  "gpu",
  "memory",
  "region",
  "available",
  "energy",
  "co2",
] as const;
export type SortMetric = (typeof SORT_METRICS)[number];

export type CatalogSort = `${SortMetric}_${"asc" | "desc"}`;
export const CATALOG_SORTS = SORT_METRICS.flatMap((m) => [`${m}_asc`, `${m}_desc`] as const) as [
  CatalogSort,
  ...CatalogSort[],
];

export function splitSort(sort: CatalogSort): { metric: SortMetric; dir: "asc" | "desc" } {
  const at = sort.lastIndexOf("_");
  return { metric: sort.slice(0, at) as SortMetric, dir: sort.slice(at + 1) as "asc" | "desc" };
}

/** Whole-GPU counts on sale, or "mig" for a MIG slice (a fraction of one GPU). */
export const GPU_COUNT_OPTIONS = ["1", "2", "4", "8", "mig"] as const;
export type GpuCountOption = (typeof GPU_COUNT_OPTIONS)[number];

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** At most this many offerings side by side on the compare page. */
export const MAX_COMPARE = 4;
