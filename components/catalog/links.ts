import { type CatalogFilters, catalogSearchParams } from "@/lib/catalog/schemas";

/**
 * A catalog URL with some filters changed. Any change other than the page itself starts again at page 1, so
 * a narrower filter never lands on an empty page past the end.
 */
export function catalogHref(orgSlug: string, filters: CatalogFilters, change: Partial<CatalogFilters> = {}) {
  const next = { ...filters, ...change };
  if (!("page" in change)) next.page = 1;
  const qs = catalogSearchParams(next).toString();
  return `/${orgSlug}/catalog${qs ? `?${qs}` : ""}`;
}
