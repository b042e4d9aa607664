"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useId, useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_TICK, xAxisLabel, yAxisLabel } from "./axis-style";
import { ChartEmpty } from "./chart-empty";
import { ChartSkeleton } from "./chart-skeleton";
import { ChartSummary } from "./chart-summary";
import { ChartTooltip } from "./chart-tooltip";
import { EMPHASIS_STYLE, type SeriesStyle, seriesStyle } from "./palette";
import type { ChartRange } from "./ranges";
import { type ChartSeries, hasSamples, summarize, toChartRows } from "./series";
import { useChartFormat } from "./use-chart-format";

const SPARSE_POINTS = 60;

export type TimeSeriesChartProps = {
  title: string;
  headingLevel?: 2 | 3;
  description?: ReactNode;
  series: ChartSeries[];
  /** Series keys drawn with the emphasis style (e.g. the average over per-GPU lines). */
  emphasis?: string[];
  range: ChartRange;
  /** Short unit for ticks, tooltip and table ("%", "GiB", "W", "min"). */
  unit: string;
  /** Axis title with its unit, e.g. "Utilization (%)". */
  yAxisLabel: string;
  digits?: number;
  yDomain?: [number, number | "auto"];
  /** Area fills under each series (use for one or two series; lines read better with many). */
  variant?: "line" | "area";
  loading?: boolean;
  error?: ReactNode;
  emptyMessage: ReactNode;
  /** Controls next to the title (range selector, toggles). */
  toolbar?: ReactNode;
  height?: number;
};

export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const { title, headingLevel = 2, series, range, unit, digits = 1, height = 260 } = props;
  const t = useTranslations("Charts");
  const fmt = useChartFormat(range);
  const headingId = useId();
  const rows = useMemo(() => toChartRows(series), [series]);
  const summaries = useMemo(() => series.map(summarize), [series]);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // A sparse series (a few queue waits in a week) would vanish as a line of isolated points: mark them.
  const dotted = useMemo(
    () => new Set(summaries.filter((x) => x.count <= SPARSE_POINTS).map((x) => x.key)),
    [summaries],
  );
  const styleOf = (key: string, i: number): SeriesStyle =>
    props.emphasis?.includes(key) ? EMPHASIS_STYLE : seriesStyle(i);

  let body: ReactNode;
  if (props.loading) body = <ChartSkeleton height={height} />;
  else if (props.error) body = <ChartEmpty height={height}>{props.error}</ChartEmpty>;
  else if (!hasSamples(series)) body = <ChartEmpty height={height}>{props.emptyMessage}</ChartEmpty>;
  else
    body = (
      <div className="flex flex-col gap-3">
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
            const st = styleOf(s.key, i);
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
                dot={dotted.has(s.key) ? { r: 2.5, fill: st.color } : false}
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
                dot={dotted.has(s.key) ? { r: 2.5, fill: st.color } : false}
                isAnimationActive={false}
              />
            );
          })}
        </ComposedChart>
        <ChartSummary
          caption={t("summary.caption", { title, range: t(`range.${range}`) })}
          summaries={summaries}
          unit={unit}
          digits={digits}
          fmt={fmt}
        />
      </div>
    );

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="text-base font-semibold">
          {title}
        </Heading>
        {props.toolbar}
      </div>
      {props.description ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{props.description}</p>
      ) : null}
      {body}
    </section>
  );
}
