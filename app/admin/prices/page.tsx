import Form from "next/form";
import { getNow, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader } from "@/components/admin/page-header";
import { listInstanceTypeChoices, listPrices } from "@/lib/catalog";
import { quotaChoices } from "@/lib/quotas";
import { first, getAdminContext, type SearchParams } from "../admin-context";
import { SchedulePriceForm } from "./price-form";
import { PriceTable } from "./price-table";

const control =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

/**
 * Operators' prices: one region's price book at a time (the first region unless the URL names one, so the
 * page stays a readable size), filtered by GPU model, with the form that schedules a change.
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
  const region = first(sp.region)?.trim() || choices.regions[0]?.code;
  const gpuModel = first(sp.gpu)?.trim() || undefined;
  const rows = await listPrices({ ...ctx, now: () => now }, { region, gpuModel });
  const regionOptions = choices.regions.map((r) => ({ value: r.code, label: `${r.code} — ${r.name}` }));
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <SchedulePriceForm
        types={types.map((x) => ({ value: x.id, label: `${x.id} (${x.gpuModelName})` }))}
        regions={regionOptions}
        region={region}
      />
      <Form action="/admin/prices" className="mb-4 flex flex-wrap items-end gap-3" aria-label={t("filters")}>
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("showRegion")}</span>
          <select name="region" defaultValue={region ?? ""} className={control}>
            {regionOptions.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("showGpu")}</span>
          <select name="gpu" defaultValue={gpuModel ?? ""} className={control}>
            <option value="">{t("allGpus")}</option>
            {choices.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800"
        >
          {t("apply")}
        </button>
      </Form>
      {rows.length === 0 ? (
        <EmptyState title={t("empty")} body={t("emptyHint")} />
      ) : (
        <PriceTable rows={rows} now={now} />
      )}
    </>
  );
}
