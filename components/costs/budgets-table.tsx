import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { BudgetWithStatus } from "@/lib/budgets";
import { BudgetStatusBadge } from "./budget-status";

/** Every budget with this month's actual and forecast against its amount. */
export async function BudgetsTable({ org, budgets }: { org: string; budgets: BudgetWithStatus[] }) {
  const t = await getTranslations("Costs.budgets");
  const format = await getFormatter();
  const money = (n: number, c: string) => format.number(n, { style: "currency", currency: c });
  const pct = (n: number) => format.number(n / 100, { style: "percent", maximumFractionDigits: 1 });
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="sr-only">{t("tableCaption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("name")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("scope")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t("budget")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t("actual")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t("forecast")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("statusLabel")}
            </th>
            <th scope="col" className="py-2 font-medium">
              {t("actionLabel")}
            </th>
          </tr>
        </thead>
        <tbody>
          {budgets.map((b) => (
            <tr key={b.id} className="border-b border-slate-100 dark:border-slate-800">
              <th scope="row" className="py-2 pr-3 font-normal">
                <Link
                  href={`/${org}/budgets/${b.id}`}
                  className="text-orange-800 underline dark:text-orange-300"
                >
                  {b.name}
                </Link>
              </th>
              <td className="py-2 pr-3">
                {b.serviceName
                  ? t("serviceScope", { service: b.serviceName })
                  : (b.projectName ?? t("wholeOrg"))}
              </td>
              <td className="py-2 pr-3 text-right">{money(Number(b.amountUsd), b.currency)}</td>
              <td className="py-2 pr-3 text-right">
                {money(b.forecast.actualUsd, b.currency)}{" "}
                <span className="text-xs text-slate-600 dark:text-slate-400">({pct(b.usedPct)})</span>
              </td>
              <td className="py-2 pr-3 text-right">
                {money(b.forecast.forecastUsd, b.currency)}{" "}
                <span className="text-xs text-slate-600 dark:text-slate-400">({pct(b.forecastPct)})</span>
              </td>
              <td className="py-2 pr-3">
                <BudgetStatusBadge status={b.status} blocks={b.blocksLaunches} />
              </td>
              <td className="py-2">{t(`form.action.${b.actionAt100}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
