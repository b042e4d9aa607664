"use client";

import { useFormatter, useTranslations } from "next-intl";
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, xAxisLabel, yAxisLabel } from "@/components/charts/axis-style";
import { seriesStyle } from "@/components/charts/palette";
import type { BudgetPoint } from "./budget-series";

/** The picture of BudgetChart (recharts), loaded on its own so that pages without a chart never fetch it. */
export function BudgetPlot(props: {
  points: BudgetPoint[];
  currency: string;
  title: string;
  summary: string;
  height: number;
}) {
  const { points, currency, title, summary, height } = props;
  const t = useTranslations("Costs.budgets.chart");
  const format = useFormatter();
  const money = (n: number | null) =>
    n === null ? t("none") : format.number(n, { style: "currency", currency });
  const day = (ms: number) =>
    format.dateTime(new Date(ms), { month: "short", day: "numeric", timeZone: "UTC" });
  const instant = (ms: number) =>
    format.dateTime(new Date(ms), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const [actual, forecast, budget] = [seriesStyle(0), seriesStyle(1), seriesStyle(4)];
  return (
    <ComposedChart
      data={points}
      responsive
      style={{ width: "100%", height }}
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
  );
}
