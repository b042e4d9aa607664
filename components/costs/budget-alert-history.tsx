import { getFormatter, getNow, getTranslations } from "next-intl/server";
import { RelativeTime } from "@/components/ui/relative-time";
import type { BudgetAlertRow } from "@/lib/budgets";

/** Every threshold this budget crossed, newest first, with the amounts at the time of the alert. */
export async function BudgetAlertHistory({
  alerts,
  currency,
}: {
  alerts: BudgetAlertRow[];
  currency: string;
}) {
  const now = await getNow();
  const t = await getTranslations("Costs.budgets.history");
  const format = await getFormatter();
  const money = (v: string) => format.number(Number(v), { style: "currency", currency });
  return (
    <section aria-labelledby="history-heading" className="flex flex-col gap-2">
      <h2 id="history-heading" className="text-lg font-semibold">
        {t("heading")}
      </h2>
      {alerts.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("when")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("month")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("threshold")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("actual")}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {t("forecast")}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {t("budget")}
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((a) => (
                <tr key={a.id} className="border-b border-slate-100 dark:border-slate-800">
                  <td className="py-1 pr-3">
                    <RelativeTime date={a.createdAt} now={now} />
                  </td>
                  <td className="py-1 pr-3">{a.period}</td>
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {t(a.kind === "actual" ? "actualAt" : "forecastAt", { pct: a.pct })}
                  </th>
                  <td className="py-1 pr-3 text-right">{money(a.actualUsd)}</td>
                  <td className="py-1 pr-3 text-right">{money(a.forecastUsd)}</td>
                  <td className="py-1 text-right">{money(a.budgetUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
