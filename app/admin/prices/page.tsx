import { getNow, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader } from "@/components/admin/page-header";
import { ChartFilters } from "@/components/charts/chart-filters";
import { listInstanceTypeChoices, listPrices } from "@/lib/catalog";
import { quotaChoices } from "@/lib/quotas";
import { first, getAdminContext, type SearchParams } from "../admin-context";
import { SchedulePriceForm } from "./price-form";
import { PriceTable } from "./price-table";

/**
 * Operators' prices: one region's price book at a time unless "All" is asked for (the first region when the
 * URL names none, so the page opens at a readable size), filtered by GPU model, with the form that schedules
 * a change.
 */
export default async function PricesPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const [choices, types, t, now] = await Promise.all([
    quotaChoices(ctx),
    listInstanceTypeChoices(ctx),
    getTranslations("Prices"),
    getNow(),
  ]);
  // No region in the URL: the first one; an explicit empty one ("All"): every region.
  const asked = first(sp.region);
  const region = asked === undefined ? choices.regions[0]?.code : asked.trim() || undefined;
  const gpuModel = first(sp.gpu)?.trim() || undefined;
  const rows = await listPrices({ ...ctx, now: () => now }, { region, gpuModel });
  const regionOptions = choices.regions.map((r) => ({ value: r.code, label: `${r.code} — ${r.name}` }));
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <SchedulePriceForm
        // A new region in the URL is a new form: its preselected region follows the page's.
        key={region ?? "all"}
        types={types.map((x) => ({ value: x.id, label: `${x.id} (${x.gpuModelName})` }))}
        regions={regionOptions}
        region={region}
      />
      <div className="mb-4">
        <ChartFilters
          action="/admin/prices"
          legend={t("filters")}
          keep={{}}
          selects={[
            { name: "region", label: t("showRegion"), value: region ?? "", options: regionOptions },
            {
              name: "gpu",
              label: t("showGpu"),
              value: gpuModel,
              options: choices.models.map((m) => ({ value: m.id, label: m.name })),
            },
          ]}
        />
      </div>
      {rows.length === 0 ? (
        <EmptyState title={t("empty")} body={t("emptyHint")} />
      ) : (
        <PriceTable rows={rows} now={now} />
      )}
    </>
  );
}
