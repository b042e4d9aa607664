import Link from "next/link";
import { useTranslations } from "next-intl";
import type { CatalogFilters } from "@/lib/catalog/schemas";
import { catalogHref } from "./links";

type Props = {
  orgSlug: string;
  filters: CatalogFilters;
  regionNames: Record<string, string>;
  gpuNames: Record<string, string>;
};

/** No results: name each active filter with a link that removes just that one. */
export function CatalogEmptyState({ orgSlug, filters, regionNames, gpuNames }: Props) {
  const t = useTranslations("Catalog");
  const removable: Array<{ label: string; change: Partial<CatalogFilters> }> = [
    ...filters.region.map((r) => ({
      label: regionNames[r] ?? r,
      change: { region: filters.region.filter((x) => x !== r) },
    })),
    ...filters.jurisdiction.map((j) => ({
      label: t("allInJurisdiction", { jurisdiction: j }),
      change: { jurisdiction: filters.jurisdiction.filter((x) => x !== j) },
    })),
    ...filters.gpu.map((g) => ({
      label: gpuNames[g] ?? g,
      change: { gpu: filters.gpu.filter((x) => x !== g) },
    })),
  ];
  if (filters.minMemoryGib)
    removable.push({
      label: t("memoryOption", { gib: filters.minMemoryGib }),
      change: { minMemoryGib: undefined },
    });
  if (filters.gpuCount)
    removable.push({
      label:
        filters.gpuCount === "mig"
          ? t("migSliceOption")
          : t("gpuCountOption", { count: Number(filters.gpuCount) }),
      change: { gpuCount: undefined },
    });
  if (filters.maxPrice !== undefined)
    removable.push({ label: `${t("maxPrice")}: ${filters.maxPrice}`, change: { maxPrice: undefined } });
  if (filters.available) removable.push({ label: t("availableNow"), change: { available: undefined } });
  if (filters.pricing !== "on_demand")
    removable.push({ label: t(`pricing.${filters.pricing}`), change: { pricing: "on_demand" } });

  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-6 dark:border-slate-700">
      <h3 className="text-base font-semibold">{t("emptyTitle")}</h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t("emptyBody")}</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {removable.map((r) => (
          <li key={r.label}>
            <Link
              href={catalogHref(orgSlug, filters, r.change)}
              className="inline-block rounded-full border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              {t("removeFilter", { filter: r.label })}
            </Link>
          </li>
        ))}
        <li>
          <Link
            href={`/${orgSlug}/catalog`}
            className="inline-block px-3 py-1 text-sm text-orange-800 underline dark:text-orange-300"
          >
            {t("clearAll")}
          </Link>
        </li>
      </ul>
    </div>
  );
}
