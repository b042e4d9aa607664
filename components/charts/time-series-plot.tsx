"use client";

import { useTranslations } from "next-intl";
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, xAxisLabel, yAxisLabel } from "./axis-style";
import { ChartTooltip } from "./chart-tooltip";
import { EMPHASIS_STYLE, seriesStyle } from "./palette";
import type { ChartRange } from "./ranges";
import type { ChartRow, ChartSeries } from "./series";
import { useChartFormat } from "./use-chart-format";

/** The picture of TimeSeriesChart (recharts), loaded on its own so that pages without a chart never fetch it. */
export function TimeSeriesPlot(props: {
  rows: ChartRow[];
  series: ChartSeries[];
  title: string;
  height: number;
  range: ChartRange;
  unit: string;
  digits: number;
  yAxisLabel: string;
  yDomain?: [number, number | "auto"];
  variant?: "line" | "area";
  /** Series keys drawn with the emphasis style. */
  emphasis?: string[];
  /** Series keys sparse enough to be drawn as points. */
  dotted: string[];
}) {
  const { rows, series, title, height, range, unit, digits, emphasis, dotted } = props;
  const t = useTranslations("Charts");
  const fmt = useChartFormat(range);
  return (
    <ComposedChart
      data={rows}
      responsive
      style={{ width: "100%", height }}
      margin={{ top: 8, right: 16, bottom: 20, left: 8 }}
      title={title}
      desc={t("pictureDescription")}
    >
      <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
      <XAxis
        dataKey="t"
        type="number"
        scale="time"
        domain={["dataMin", "dataMax"]}
        tickFormatter={fmt.tick}
        minTickGap={24}
        tick={AXIS_TICK}
        label={xAxisLabel(t("timeAxis", { timeZone: fmt.timeZone }))}
      />
      <YAxis
        width="auto"
        domain={props.yDomain ?? [0, "auto"]}
        tickFormatter={(v: number) => fmt.value(v, 0)}
        tick={AXIS_TICK}
        label={yAxisLabel(props.yAxisLabel)}
      />
      <Tooltip content={(p) => <ChartTooltip {...p} fmt={fmt} unit={unit} digits={digits} />} />
      <Legend verticalAlign="top" height={28} itemSorter={null} wrapperStyle={{ fontSize: 12 }} />
      {series.map((s, i) => {
        const st = emphasis?.includes(s.key) ? EMPHASIS_STYLE : seriesStyle(i);
        return props.variant === "area" ? (
          <Area
            key={s.key}
            dataKey={s.key}
            name={s.label}
            type="monotone"
            stroke={st.color}
            fill={st.color}
            fillOpacity={0.12}
            strokeWidth={st.width}
            strokeDasharray={st.dash}
            dot={dotted.includes(s.key) ? { r: 2.5, fill: st.color } : false}
            isAnimationActive={false}
          />
        ) : (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            type="monotone"
            stroke={st.color}
            strokeWidth={st.width}
            strokeDasharray={st.dash}
            dot={dotted.includes(s.key) ? { r: 2.5, fill: st.color } : false}
            isAnimationActive={false}
          />
        );
      })}
    </ComposedChart>
  );
}
