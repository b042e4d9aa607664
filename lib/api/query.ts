import type { CatalogFilterInput } from "@/lib/catalog";

const MULTI = ["region", "jurisdiction", "gpu"] as const;

/**
 * Query parameters → the catalog's filter input, left raw so the library's schema validates it: repeated or
 * comma-separated values for the list filters, the first value for the rest. Unknown parameters are ignored.
 */
export function catalogQueryFromSearchParams(q: URLSearchParams): CatalogFilterInput {
  const out: Record<string, unknown> = {};
  for (const key of MULTI) {
    const values = q
      .getAll(key)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length) out[key] = values;
  }
  for (const key of [
    "minMemoryGib",
    "gpuCount",
    "pricing",
    "maxPrice",
    "available",
    "sort",
    "page",
    "pageSize",
  ]) {
    const v = q.get(key);
    if (v !== null && v !== "") out[key] = v;
  }
  return out as CatalogFilterInput;
}
