import { getTranslations } from "next-intl/server";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { CatalogEmptyState } from "@/components/catalog/empty-state";
import { catalogHref } from "@/components/catalog/links";
import { OfferingList } from "@/components/catalog/offering-list";
import { RegionBrowser } from "@/components/catalog/region-browser";
import { Pagination } from "@/components/ui/pagination";
import { listGpuModels, listOfferings, listRegions, parseCatalogFilters } from "@/lib/catalog";
import { expectedWaits } from "@/lib/telemetry";
import { getOrgPageContext } from "../org-context";

type Props = {
  params: Promise<{ org: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export default async function CatalogPage({ params, searchParams }: Props) {
  const { org: slug } = await params;
  const { ctx, org } = await getOrgPageContext(slug);
  const { filters, ignored } = parseCatalogFilters(await searchParams);
  const [result, groups, gpuModels, waits] = await Promise.all([
    listOfferings(ctx, slug, filters),
    listRegions(ctx),
    listGpuModels(ctx),
    // One query for every region × GPU model: the median of recent queue waits, shown on offerings that would queue.
    expectedWaits(ctx),
  ]);
  const waitByOffering = Object.fromEntries(
    waits.map((w) => [`${w.regionCode}/${w.gpuModelId}`, { p50Seconds: w.p50Seconds, samples: w.waits }]),
  );
  const t = await getTranslations("Catalog");
  const regionNames = Object.fromEntries(groups.flatMap((g) => g.regions.map((r) => [r.code, r.name])));
  const gpuNames = Object.fromEntries(gpuModels.map((m) => [m.id, m.name]));
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("intro")}</p>
      </header>
      {ignored.length ? (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          {t("ignoredFilters", {
            fields: ignored.map((f) => t(`fieldNames.${f}` as "fieldNames.region")).join(", "),
          })}
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_1fr]">
        <RegionBrowser
          orgSlug={slug}
          groups={groups}
          filters={filters}
          allowedJurisdictions={org.allowedJurisdictions}
        />
        <div className="flex min-w-0 flex-col gap-6">
          <CatalogFilters
            filters={filters}
            gpuModels={gpuModels.map((m) => ({ id: m.id, name: m.name }))}
            clearHref={`/${slug}/catalog`}
          />
          <section aria-labelledby="catalog-results-heading" className="flex flex-col gap-4">
            <h2 id="catalog-results-heading" className="text-lg font-semibold">
              {t("resultsHeading")}
            </h2>
            {result.items.length ? (
              <OfferingList orgSlug={slug} result={result} waits={waitByOffering} />
            ) : (
              <CatalogEmptyState
                orgSlug={slug}
                filters={filters}
                regionNames={regionNames}
                gpuNames={gpuNames}
              />
            )}
            <Pagination
              page={result.page}
              pageCount={result.pageCount}
              href={(page) => catalogHref(slug, filters, { page })}
            />
          </section>
        </div>
      </div>
    </div>
  );
}
