"use client";

import { useFormatter, useTranslations } from "next-intl";
import { Bar, CartesianGrid, ComposedChart, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, xAxisLabel, yAxisLabel } from "@/components/charts/axis-style";
import { seriesStyle } from "@/components/charts/palette";
import type { DailyCostGroup, DailyCostRow } from "./daily-cost-chart";

/** The picture of DailyCostChart (recharts), loaded on its own so that pages without a chart never fetch it. */
export function DailyCostPlot(props: {
  data: DailyCostRow[];
  groups: DailyCostGroup[];
  currency: string;
  title: string;
  groupInline: string;
  height: number;
}) {
  const { data, groups, currency, title, groupInline, height } = props;
  const t = useTranslations("Costs.usage.daily");
  const format = useFormatter();
  const money = (n: number) => format.number(n, { style: "currency", currency });
  const dayLabel = (d: string) =>
    format.dateTime(new Date(`${d}T00:00:00Z`), { month: "short", day: "numeric", timeZone: "UTC" });
  return (
    <ComposedChart
      data={data}
      responsive
      style={{ width: "100%", height }}
      margin={{ top: 8, right: 16, bottom: 20, left: 8 }}
      title={title}
      desc={t("pictureDescription", { group: groupInline })}
    >
      <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
      <XAxis
        dataKey="day"
        tickFormatter={dayLabel}
        minTickGap={16}
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
        formatter={(v) => money(Number(v))}
        labelFormatter={(d) => dayLabel(String(d))}
        contentStyle={{ fontSize: 12 }}
      />
      <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
      {groups.map((g, i) => (
        <Bar
          key={g.key}
          dataKey={g.key}
          name={g.label}
          stackId="cost"
          fill={seriesStyle(i).color}
          isAnimationActive={false}
        />
      ))}
    </ComposedChart>
  );
}
