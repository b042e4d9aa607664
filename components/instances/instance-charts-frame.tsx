import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { type ChartRange, RangeSelector, TimeSeriesChart, UrlSegmented } from "@/components/charts";

export type InstanceMetric = "utilization" | "memory" | "power";

export const INSTANCE_METRICS: Array<{
  metric: InstanceMetric;
  title: string;
  axis: string;
  unit: string;
  digits: number;
}> = [
  { metric: "utilization", title: "utilization", axis: "yUtilization", unit: "percent", digits: 1 },
  { metric: "memory", title: "memory", axis: "yMemory", unit: "gib", digits: 1 },
  { metric: "power", title: "power", axis: "yPower", unit: "watts", digits: 0 },
];

/** Live ranges poll like the worker ingests (every 10 s); a day or more barely moves between two looks. */
export function metricsRefetchInterval(range: ChartRange): number | false {
  if (range === "1h" || range === "6h") return 10_000;
  if (range === "24h") return 60_000;
  return false;
}

/**
 * The GPU metrics section around its three charts: heading, average/per-GPU and range controls (links in the
 * URL), the refresh note. No "use client": the page renders it on the server with loading charts as
 * LazyInstanceCharts' fallback (the same frame, so nothing moves when the charts arrive, and it reads without
 * JavaScript), InstanceCharts in the browser with their data.
 */
export function InstanceChartsFrame({
  range,
  perGpu,
  gpuCount,
  children,
}: {
  range: ChartRange;
  perGpu: boolean;
  gpuCount: number;
  children: ReactNode;
}) {
  const t = useTranslations("Charts");
  return (
    <section aria-labelledby="instance-charts-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="instance-charts-heading" className="text-lg font-semibold">
          {t("instance.heading")}
        </h2>
        <div className="flex flex-wrap items-center gap-4">
          {gpuCount > 1 ? (
            <UrlSegmented
              legend={t("instance.view")}
              param="gpus"
              value={perGpu ? "each" : "avg"}
              options={[
                { value: "avg", label: t("instance.average") },
                { value: "each", label: t("instance.perGpu") },
              ]}
            />
          ) : null}
          <RangeSelector value={range} />
        </div>
      </div>
      {metricsRefetchInterval(range) === 10_000 ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">{t("instance.refresh")}</p>
      ) : null}
      <div className="grid gap-4 xl:grid-cols-2">{children}</div>
    </section>
  );
}

/** The frame with each chart's title over its loading skeleton, while InstanceCharts' code and data load. */
export function InstanceChartsLoading({
  range,
  perGpu,
  gpuCount,
}: {
  range: ChartRange;
  perGpu: boolean;
  gpuCount: number;
}) {
  const t = useTranslations("Charts");
  return (
    <InstanceChartsFrame range={range} perGpu={perGpu} gpuCount={gpuCount}>
      {INSTANCE_METRICS.map((m) => (
        <TimeSeriesChart
          key={m.metric}
          headingLevel={3}
          title={t(`instance.${m.title}`)}
          range={range}
          unit={t(`units.${m.unit}`)}
          yAxisLabel={t(`instance.${m.axis}`)}
          series={[]}
          loading
          emptyMessage={t("instance.empty")}
        />
      ))}
    </InstanceChartsFrame>
  );
}
