import { getFormatter, getTranslations } from "next-intl/server";
import type { ReservationUtilization } from "@/lib/metering";

/** Each reservation with its term, dates, used vs. unused GPU-hours and what the unused hours cost. */
export async function ReservationsTable({
  reservations,
  currency,
  now,
  caption,
  modelNames = {},
}: {
  reservations: ReservationUtilization[];
  currency: string;
  now: Date;
  caption: string;
  /** GPU model id → name, for people who do not know the ids. */
  modelNames?: Record<string, string>;
}) {
  const t = await getTranslations("Costs.reservations.table");
  const tp = await getTranslations("Costs.pricing");
  const format = await getFormatter();
  const date = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeZone: "UTC" });
  const hours = (n: number) => format.number(n, { maximumFractionDigits: 1 });
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="mb-1 text-left text-xs text-slate-600 dark:text-slate-400">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("reservation")}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("term")}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("period")}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("status")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("used")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("unused")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("utilization")}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {t("unusedCost")}
            </th>
          </tr>
        </thead>
        <tbody>
          {reservations.map((r) => {
            const active = r.startsAt <= now && r.endsAt > now;
            return (
              <tr key={r.reservationId} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {t("what", {
                    count: r.gpuCount,
                    model: modelNames[r.gpuModelId] ?? r.gpuModelId,
                    region: r.regionCode,
                  })}
                </th>
                <td className="py-1 pr-3">{tp.has(r.term) ? tp(r.term) : r.term}</td>
                <td className="py-1 pr-3">{t("range", { from: date(r.startsAt), to: date(r.endsAt) })}</td>
                <td className="py-1 pr-3">{active ? t("active") : t("ended")}</td>
                <td className="py-1 pr-3 text-right">{hours(r.usedGpuHours)}</td>
                <td className="py-1 pr-3 text-right">{hours(r.unusedGpuHours)}</td>
                <td className="py-1 pr-3 text-right">
                  {r.utilizationPct === null
                    ? t("notMetered")
                    : format.number(r.utilizationPct / 100, { style: "percent", maximumFractionDigits: 1 })}
                </td>
                <td className="py-1 text-right">
                  {format.number(r.unusedCostUsd, { style: "currency", currency })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
