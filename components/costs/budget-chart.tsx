"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId } from "react";
import { lazyClient } from "@/components/ui/lazy-client";
import type { BudgetPoint } from "./budget-series";

type Props = { title: string; points: BudgetPoint[]; currency: string; summary: string };

const PLOT_HEIGHT = 280;
// recharts (about 130 kB gzip) is fetched after the page has loaded, by the pages that draw a chart.
const BudgetPlot = lazyClient(() => import("./budget-plot").then((m) => m.BudgetPlot));

/**
 * Cumulative actual spend (area), the forecast to month end (dashed) and the budget (flat line) over the
 * month, with a sentence and a per-day table carrying the same numbers for people who cannot see the chart.
 */
export function BudgetChart({ title, points, currency, summary }: Props) {
  const t = useTranslations("Costs.budgets.chart");
  const format = useFormatter();
  const headingId = useId();
  const money = (n: number | null) =>
    n === null ? t("none") : format.number(n, { style: "currency", currency });
  const instant = (ms: number) =>
    format.dateTime(new Date(ms), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {title}
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">{summary}</p>
      <div style={{ minHeight: PLOT_HEIGHT }}>
        <BudgetPlot
          points={points}
          currency={currency}
          title={title}
          summary={summary}
          height={PLOT_HEIGHT}
        />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-orange-800 underline dark:text-orange-300">
          {t("showTable")}
        </summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-xs dark:border-slate-700">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("at")}
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
              {points.map((p) => (
                <tr key={p.t} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {instant(p.t)}
                  </th>
                  <td className="py-1 pr-3 text-right">{money(p.actual)}</td>
                  <td className="py-1 pr-3 text-right">{money(p.forecast)}</td>
                  <td className="py-1 text-right">{money(p.budget)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
