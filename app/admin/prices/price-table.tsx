"use client";

import { useTranslations } from "next-intl";
import { HeaderRow, tableClass, tdClass } from "@/components/admin/page-header";
import { useOfferingFormat } from "@/components/catalog/offering-format";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { RelativeTime } from "@/components/ui/relative-time";
import type { PriceRow } from "@/lib/catalog";
import { cancelPriceAction } from "./actions";

/**
 * The price book of one region (or all): the price in force, per GPU-hour against the public market median
 * (the margin, in the catalog's own wording) with the market's 10th–90th percentile range, and each scheduled
 * change with its cancel button.
 */
export function PriceTable({ rows, now }: { rows: PriceRow[]; now: Date }) {
  const t = useTranslations("Prices");
  const { usd, usdFine, market, format } = useOfferingFormat();
  const utc = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        <caption className="sr-only">{t("caption")}</caption>
        <HeaderRow
          labels={(["type", "region", "model", "now", "perGpu", "market", "scheduled"] as const).map((k) =>
            t(`col.${k}`),
          )}
        />
        <tbody>
          {rows.map((r) => {
            const key = `${r.instanceTypeId}-${r.regionCode}-${r.pricingModel}`;
            return (
              <tr key={key}>
                <th scope="row" className={`${tdClass} font-medium`}>
                  {r.instanceTypeId}
                  <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                    {r.gpuModelName}
                  </span>
                </th>
                <td className={tdClass}>{r.regionCode}</td>
                <td className={tdClass}>{t(`models.${r.pricingModel}`)}</td>
                <td className={tdClass}>
                  {r.current ? t("perHour", { price: usdFine(r.current.usdPerHour) }) : t("notOnSale")}
                </td>
                <td className={tdClass}>{r.perGpuUsd === null ? "—" : usd(r.perGpuUsd)}</td>
                <td className={tdClass}>
                  {r.perGpuUsd !== null && r.marketMedianPerGpu
                    ? t("margin", { position: market(r.perGpuUsd, r.marketMedianPerGpu) ?? "" })
                    : t("noMarket")}
                  {r.marketMedianPerGpu && r.marketP10PerGpu !== null && r.marketP90PerGpu !== null ? (
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {t("marketRange", {
                        p10: usd(r.marketP10PerGpu),
                        p90: usd(r.marketP90PerGpu),
                        median: usd(r.marketMedianPerGpu),
                      })}
                    </span>
                  ) : null}
                </td>
                <td className={tdClass}>
                  {r.scheduled.length === 0 ? (
                    <span className="text-slate-600 dark:text-slate-400">{t("noneScheduled")}</span>
                  ) : (
                    <ul className="flex flex-col gap-2">
                      {r.scheduled.map((s) => {
                        const what = t("scheduledItem", {
                          price: usdFine(s.usdPerHour),
                          at: utc(s.effectiveFrom),
                        });
                        return (
                          <li key={s.id} className="flex flex-wrap items-center gap-2">
                            <span>
                              {what} (<RelativeTime date={s.effectiveFrom} now={now} />)
                            </span>
                            <ConfirmAction
                              trigger={t("cancel")}
                              triggerLabel={t("cancelLabel", {
                                type: r.instanceTypeId,
                                model: t(`models.${r.pricingModel}`),
                                what,
                              })}
                              title={t("cancelTitle")}
                              description={t("cancelBody", {
                                type: r.instanceTypeId,
                                region: r.regionCode,
                                what,
                              })}
                              confirmLabel={t("cancelConfirm")}
                              action={cancelPriceAction}
                              fields={{ priceId: s.id }}
                            />
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
