import { useTranslations } from "next-intl";
import { type ReactNode, useId, useMemo } from "react";
import { ChartEmpty } from "./chart-empty";
import { ChartSkeleton } from "./chart-skeleton";
import { ChartSummary } from "./chart-summary";
import type { ChartRange } from "./ranges";
import { type ChartSeries, hasSamples, summarize, toChartRows } from "./series";
import { LazyTimeSeriesPlot } from "./time-series-plot-lazy";
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
    () => summaries.filter((x) => x.count <= SPARSE_POINTS).map((x) => x.key),
    [summaries],
  );

  let body: ReactNode;
  if (props.loading) body = <ChartSkeleton height={height} />;
  else if (props.error) body = <ChartEmpty height={height}>{props.error}</ChartEmpty>;
  else if (!hasSamples(series)) body = <ChartEmpty height={height}>{props.emptyMessage}</ChartEmpty>;
  else
    body = (
      <div className="flex flex-col gap-3">
        <div style={{ minHeight: height }}>
          <LazyTimeSeriesPlot
            rows={rows}
            series={series}
            title={title}
            height={height}
            range={range}
            unit={unit}
            digits={digits}
            yAxisLabel={props.yAxisLabel}
            yDomain={props.yDomain}
            variant={props.variant}
            emphasis={props.emphasis}
            dotted={dotted}
          />
        </div>
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
