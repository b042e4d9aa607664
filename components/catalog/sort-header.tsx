import Link from "next/link";
import type { CatalogFilters, SortMetric } from "@/lib/catalog/schemas";
import { splitSort } from "@/lib/catalog/schemas";
import { catalogHref } from "./links";

/** Columns people usually want biggest first; the rest start ascending. */
const DESC_FIRST = new Set<SortMetric>(["available", "memory"]);

/**
 * A column header that sorts the catalog by its column: a link (keyboard and no-JS friendly) to the same
 * filters with this sort, flipping direction when the column is already the sort key; the header carries
 * aria-sort only while it is the sort column, as the ARIA table pattern asks.
 */
export function SortHeader({
  metric,
  label,
  orgSlug,
  filters,
  className = "",
}: {
  metric: SortMetric;
  label: string;
  orgSlug: string;
  filters: CatalogFilters;
  className?: string;
}) {
  const current = splitSort(filters.sort);
  const active = current.metric === metric;
  const next = active ? (current.dir === "asc" ? "desc" : "asc") : DESC_FIRST.has(metric) ? "desc" : "asc";
  return (
    <th
      scope="col"
      aria-sort={active ? (current.dir === "asc" ? "ascending" : "descending") : undefined}
      className={`px-2 py-2 text-left align-bottom font-semibold ${className}`}
    >
      <Link
        href={catalogHref(orgSlug, filters, { sort: `${metric}_${next}` })}
        className="inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
      >
        {label}
        <span aria-hidden="true" className={active ? "" : "text-slate-400"}>
          {active ? (current.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </Link>
    </th>
  );
}
