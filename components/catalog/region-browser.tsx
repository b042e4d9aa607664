import Link from "next/link";
import { useTranslations } from "next-intl";
import type { JurisdictionGroup } from "@/lib/catalog";
import type { CatalogFilters } from "@/lib/catalog/schemas";
import { catalogHref } from "./links";

type Props = {
  orgSlug: string;
  groups: JurisdictionGroup[];
  filters: CatalogFilters;
  allowedJurisdictions: string[];
};

const linkClass =
  "block rounded-md px-2 py-1 text-sm hover:bg-slate-100 aria-[current=true]:bg-orange-50 aria-[current=true]:font-semibold aria-[current=true]:text-orange-900 dark:hover:bg-slate-800 dark:aria-[current=true]:bg-slate-800 dark:aria-[current=true]:text-orange-300";

/** Pick a whole jurisdiction (data-residency bloc) or one region; links keep every other filter. */
export function RegionBrowser({ orgSlug, groups, filters, allowedJurisdictions }: Props) {
  const t = useTranslations("Catalog");
  const noLocation = !filters.region.length && !filters.jurisdiction.length;
  const isOnly = (list: string[], v: string) => list.length === 1 && list[0] === v;
  return (
    <nav aria-labelledby="catalog-regions-heading" className="flex flex-col gap-3">
      <h2 id="catalog-regions-heading" className="text-lg font-semibold">
        {t("regionsHeading")}
      </h2>
      <Link
        href={catalogHref(orgSlug, filters, { region: [], jurisdiction: [] })}
        aria-current={noLocation ? "true" : undefined}
        className={linkClass}
      >
        {t("allRegions")}
      </Link>
      {groups.map((g) => {
        const outside = allowedJurisdictions.length > 0 && !allowedJurisdictions.includes(g.jurisdiction);
        const names = t.has(`jurisdiction.${g.jurisdiction}`) ? t(`jurisdiction.${g.jurisdiction}`) : null;
        return (
          <section key={g.jurisdiction} aria-labelledby={`jurisdiction-${g.jurisdiction}`}>
            <h3 id={`jurisdiction-${g.jurisdiction}`} className="px-2 text-sm font-semibold">
              {g.jurisdiction}
              {names ? (
                <span className="font-normal text-slate-600 dark:text-slate-400"> · {names}</span>
              ) : null}
            </h3>
            {outside ? (
              <p className="px-2 text-xs text-slate-700 dark:text-slate-300">⚠ {t("jurisdictionOutside")}</p>
            ) : null}
            <ul className="mt-1 flex flex-col gap-0.5">
              <li>
                <Link
                  href={catalogHref(orgSlug, filters, { jurisdiction: [g.jurisdiction], region: [] })}
                  aria-current={isOnly(filters.jurisdiction, g.jurisdiction) ? "true" : undefined}
                  className={linkClass}
                >
                  {t("allInJurisdiction", { jurisdiction: g.jurisdiction })}
                </Link>
              </li>
              {g.regions.map((r) => (
                <li key={r.code}>
                  <Link
                    href={catalogHref(orgSlug, filters, { region: [r.code], jurisdiction: [] })}
                    aria-current={isOnly(filters.region, r.code) ? "true" : undefined}
                    aria-describedby={`region-meta-${r.code}`}
                    className={linkClass}
                  >
                    {r.name}
                  </Link>
                  <p id={`region-meta-${r.code}`} className="px-2 text-xs text-slate-600 dark:text-slate-400">
                    {t("regionMeta", { country: r.country, pue: r.pue.toFixed(2), grid: r.gridGco2PerKwh })}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
