"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId } from "react";
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, xAxisLabel, yAxisLabel } from "@/components/charts/axis-style";
import { seriesStyle } from "@/components/charts/palette";
import type { BudgetPoint } from "./budget-series";

type Props = { title: string; points: BudgetPoint[]; currency: string; summary: string };

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
  const day = (ms: number) =>
    format.dateTime(new Date(ms), { month: "short", day: "numeric", timeZone: "UTC" });
  const instant = (ms: number) =>
    format.dateTime(new Date(ms), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const [actual, forecast, budget] = [seriesStyle(0), seriesStyle(1), seriesStyle(4)];
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {title}
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">{summary}</p>
      <ComposedChart
        data={points}
        responsive
        style={{ width: "100%", height: 280 }}
        margin={{ top: 8, right: 16, bottom: 20, left: 8 }}
        title={title}
        desc={summary}
      >
        <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
        <XAxis
          dataKey="t"
          type="number"
          scale="time"
          domain={["dataMin", "dataMax"]}
          tickFormatter={day}
          minTickGap={24}
          tick={AXIS_TICK}
          label={xAxisLabel(t("xAxis"))}
        />
        <YAxis
          width="auto"
          tickFormatter={(v: number) => format.number(v, { maximumFractionDigits: 0 })}
          tick={AXIS_TICK}
          label={yAxisLabel(t("yAxis", { currency }))}
        />
        <Tooltip
          formatter={(v) => money(typeof v === "number" ? v : null)}
          labelFormatter={(l) => instant(Number(l))}
          contentStyle={{ fontSize: 12 }}
        />
        <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
        <Area
          dataKey="actual"
          name={t("actual")}
          type="linear"
          stroke={actual.color}
          fill={actual.color}
          fillOpacity={0.15}
          strokeWidth={2}
          isAnimationActive={false}
        />
        <Line
          dataKey="forecast"
          name={t("forecast")}
          type="linear"
          stroke={forecast.color}
          strokeDasharray="6 3"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="budget"
          name={t("budget")}
          type="linear"
          stroke={budget.color}
          strokeDasharray="2 3"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
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
