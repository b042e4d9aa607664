import { ScrollTable } from "@/components/ui/scroll-table";
import type { Offering } from "@/lib/catalog";
import { type CatalogFilters, compareKeyOf } from "@/lib/catalog/schemas";
import { CompareCheckbox } from "./compare-checkbox";
import { LaunchAction } from "./launch-action";
import { type ExpectedWait, offeringDomId, useOfferingFormat } from "./offering-format";
import { SortHeader } from "./sort-header";

type Props = {
  orgSlug: string;
  items: Offering[];
  filters: CatalogFilters;
  waits: Record<string, ExpectedWait>;
};

const cell = "px-2 py-2 align-top";
const muted = "block text-xs text-slate-600 dark:text-slate-400";

/**
 * The catalog on a wide screen: one dense row per offering, every figure a column, sortable by its header.
 * Rendered on the server (nothing here needs JavaScript); the compare checkboxes belong to the CompareForm
 * around it.
 */
export function OfferingTable({ orgSlug, items, filters, waits }: Props) {
  const { t, usd, usdFine, title, size, wait, market, num } = useOfferingFormat();
  const sort = { orgSlug, filters };
  return (
    <ScrollTable
      captionId="catalog-table-caption"
      caption={t("tableCaption", { pricing: t(`pricing.${filters.pricing}`) })}
    >
      <thead className="bg-slate-50 text-xs dark:bg-slate-900">
        <tr>
          <th scope="col" className="px-2 py-2 text-left align-bottom font-semibold">
            {t("compareColumn")}
          </th>
          <SortHeader metric="gpu" label={t("columns.gpu")} {...sort} />
          <th scope="col" className="px-2 py-2 text-left align-bottom font-semibold">
            {t("columns.size")}
          </th>
          <SortHeader metric="memory" label={t("columns.memory")} {...sort} />
          <SortHeader metric="region" label={t("columns.region")} {...sort} />
          <SortHeader
            metric="price"
            label={t("columns.price", { pricing: t(`pricing.${filters.pricing}`) })}
            {...sort}
          />
          <SortHeader metric="per_gpu" label={t("columns.perGpu")} {...sort} />
          <SortHeader metric="per_tflop" label={t("columns.perTflop")} {...sort} />
          <SortHeader metric="available" label={t("columns.available")} {...sort} />
          <th scope="col" className="px-2 py-2 text-left align-bottom font-semibold">
            {t("columns.wait")}
          </th>
          <SortHeader metric="energy" label={t("columns.energy")} {...sort} />
          <SortHeader metric="co2" label={t("columns.co2")} {...sort} />
          <th scope="col" className="px-2 py-2 text-left align-bottom font-semibold">
            <span className="sr-only">{t("columns.action")}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((o) => {
          const name = title(o);
          return (
            <tr
              key={compareKeyOf(o)}
              className={`border-t border-slate-200 dark:border-slate-800 ${o.allowed ? "" : "bg-slate-50 dark:bg-slate-900"}`}
            >
              <td className={cell}>
                <CompareCheckbox
                  value={compareKeyOf(o)}
                  label={t("compareLabel", { offering: name, region: o.regionName })}
                />
              </td>
              <th scope="row" className={`${cell} text-left font-medium`}>
                {o.gpuModelName}
                <span className={`${muted} font-mono font-normal`}>{o.instanceTypeId}</span>
              </th>
              <td className={cell}>{size(o)}</td>
              <td className={cell}>{t("gibValue", { value: o.gpuMemoryGib })}</td>
              <td className={cell}>
                {o.regionName}
                <span className={muted}>
                  {o.regionCode} · {o.jurisdiction}
                </span>
              </td>
              <td className={`${cell} font-semibold`}>
                {t("perHour", { price: usd(o.price) })}
                {o.marketMedianPerGpu ? (
                  <span className={`${muted} font-normal`}>
                    {market(o.pricePerGpu, o.marketMedianPerGpu)}
                  </span>
                ) : null}
              </td>
              <td className={cell}>{usd(o.pricePerGpu)}</td>
              <td className={cell}>
                {o.pricePerTflop === null ? t("notPublished") : usdFine(o.pricePerTflop)}
              </td>
              <td className={cell}>
                {o.available > 0 ? (
                  <span className="text-green-800 dark:text-green-300">
                    <span aria-hidden="true">● </span>
                    {t("availableShort", { count: o.available })}
                  </span>
                ) : (
                  <span className="text-amber-800 dark:text-amber-300">
                    <span aria-hidden="true">◌ </span>
                    {t("queuesShort")}
                  </span>
                )}
              </td>
              <td className={cell}>{wait(o, waits[`${o.regionCode}/${o.gpuModelId}`] ?? null)}</td>
              <td className={cell}>
                {num(o.energyKwh, 2)}
                {o.energyEstimatedTdp ? <span className={muted}>{t("tdpAssumed")}</span> : null}
              </td>
              <td className={cell}>{num(o.co2eGrams, 0)}</td>
              <td className={cell}>
                <LaunchAction
                  offering={o}
                  orgSlug={orgSlug}
                  pricing={filters.pricing}
                  title={name}
                  reasonId={`${offeringDomId(o)}-reason`}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </ScrollTable>
  );
}
