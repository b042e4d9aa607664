import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, HeaderRow, tableClass, tdClass } from "@/components/admin/page-header";
import { waitParts } from "@/components/charts/wait-duration";
import type { CapacityPlanRow } from "@/lib/telemetry";

/**
 * Capacity planning: per region × GPU model, capacity against committed quota, use and queue now, and the
 * date the trend of daily peaks reaches capacity; the method is written out beside the numbers.
 */
export async function CapacityPlanTable({ rows }: { rows: CapacityPlanRow[] }) {
  const [t, format] = await Promise.all([getTranslations("CapacityPlan"), getFormatter()]);
  const gpus = (v: number) => format.number(v, { maximumFractionDigits: 2 });
  const num = `${tdClass} text-right tabular-nums`;
  const wait = (seconds: number | null) => {
    if (seconds === null) return t("noWaits");
    const p = waitParts(seconds);
    return t("waitValue", { value: format.number(p.value), unit: p.unit });
  };
  const runsOut = (r: CapacityPlanRow) => {
    if (r.capacityGpus === 0) return t("noCapacity");
    if (r.daysToFull === 0) return t("runsOutNow");
    if (r.daysToFull === null || !r.fullOn) return t("notExpected");
    return t("runsOutOn", {
      date: format.dateTime(r.fullOn, { dateStyle: "medium", timeZone: "UTC" }),
      days: r.daysToFull,
    });
  };
  // Soonest to run out first; pools not expected to fill after, busiest first.
  const sorted = [...rows].sort(
    (a, b) =>
      (a.daysToFull ?? Number.POSITIVE_INFINITY) - (b.daysToFull ?? Number.POSITIVE_INFINITY) ||
      b.usedGpus / (b.capacityGpus || 1) - a.usedGpus / (a.capacityGpus || 1),
  );
  return (
    <section aria-labelledby="plan-title" className="mb-8">
      <h2 id="plan-title" className="mb-1 text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="mb-1 max-w-3xl text-sm">{t("intro")}</p>
      <p className="mb-3 max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t("method")}</p>
      {sorted.length === 0 ? (
        <EmptyState title={t("empty")} body={t("emptyHint")} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("caption")}</caption>
            <HeaderRow
              labels={(
                [
                  "region",
                  "model",
                  "capacity",
                  "committed",
                  "used",
                  "queued",
                  "waitP95",
                  "trend",
                  "runsOut",
                ] as const
              ).map((k) => t(`col.${k}`))}
            />
            <tbody>
              {sorted.map((r) => (
                <tr key={`${r.regionCode}/${r.gpuModelId}`}>
                  <td className={tdClass}>{r.regionCode}</td>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    {r.gpuModelName}
                  </th>
                  <td className={num}>{gpus(r.capacityGpus)}</td>
                  <td className={num}>
                    {gpus(r.committedGpus)}
                    {r.capacityGpus > 0 && r.committedGpus > r.capacityGpus && (
                      <span className="block text-xs text-slate-600 dark:text-slate-400">
                        {t("overcommitted", {
                          ratio: format.number(r.committedGpus / r.capacityGpus, { style: "percent" }),
                        })}
                      </span>
                    )}
                  </td>
                  <td className={num}>{gpus(r.usedGpus)}</td>
                  <td className={num}>{gpus(r.queuedGpus)}</td>
                  <td className={num}>{wait(r.waitP95Seconds)}</td>
                  <td className={num}>
                    {t("trendValue", {
                      sign: r.slopePerDay > 0 ? "+" : "",
                      value: format.number(r.slopePerDay, { maximumFractionDigits: 2 }),
                    })}
                  </td>
                  <td className={tdClass}>{runsOut(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
