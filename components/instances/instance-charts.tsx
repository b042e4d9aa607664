"use client";

import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import {
  type ChartRange,
  parseRange,
  RangeSelector,
  TimeSeriesChart,
  UrlSegmented,
} from "@/components/charts";
import {
  AVERAGE_KEY,
  type InstanceSeriesData,
  instanceChartSeries,
} from "@/components/charts/instance-series";
import { useLiveQuery } from "@/components/ui/live-query";

type Metric = "utilization" | "memory" | "power";
type MetricResponse = InstanceSeriesData & { yMax: number };

const METRICS: Array<{ metric: Metric; title: string; axis: string; unit: string; digits: number }> = [
  { metric: "utilization", title: "utilization", axis: "yUtilization", unit: "percent", digits: 1 },
  { metric: "memory", title: "memory", axis: "yMemory", unit: "gib", digits: 1 },
  { metric: "power", title: "power", axis: "yPower", unit: "watts", digits: 0 },
];

/** Live ranges poll like the worker ingests (every 10 s); a day or more barely moves between two looks. */
function refetchInterval(range: ChartRange): number | false {
  if (range === "1h" || range === "6h") return 10_000;
  if (range === "24h") return 60_000;
  return false;
}

async function fetchMetric(
  org: string,
  id: string,
  metric: Metric,
  range: ChartRange,
): Promise<MetricResponse> {
  const res = await fetch(
    `/api/v1/orgs/${encodeURIComponent(org)}/instances/${encodeURIComponent(id)}/metrics?metric=${metric}&range=${range}`,
    { headers: { accept: "application/json" } },
  );
  if (!res.ok) throw new Error(`metrics ${metric}: HTTP ${res.status}`);
  return res.json();
}

/**
 * The instance page's GPU charts: utilization, memory and power, averaged or per GPU, over a range kept in the
 * URL (?range=, ?gpus=each). Data comes from the metrics route handler, already downsampled in SQL.
 */
export function InstanceCharts({
  org,
  instanceId,
  gpuCount,
}: {
  org: string;
  instanceId: string;
  gpuCount: number;
}) {
  const t = useTranslations("Charts");
  const search = useSearchParams();
  const range = parseRange(search?.get("range"), "1h");
  const perGpu = gpuCount > 1 && search?.get("gpus") === "each";
  const metric = (m: Metric) => ({
    key: ["instance-metrics", org, instanceId, m, range],
    fetch: () => fetchMetric(org, instanceId, m, range),
    every: refetchInterval(range),
  });
  // One query per entry of METRICS, in its order.
  const results = [
    useLiveQuery(metric("utilization")),
    useLiveQuery(metric("memory")),
    useLiveQuery(metric("power")),
  ];
  const labels = {
    gpu: (index: number) => t("instance.gpu", { index }),
    average: t("instance.averageOf", { count: gpuCount }),
  };

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
      {refetchInterval(range) === 10_000 ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">{t("instance.refresh")}</p>
      ) : null}
      <div className="grid gap-4 xl:grid-cols-2">
        {METRICS.map((m, i) => {
          const q = results[i];
          const data = q?.data;
          return (
            <TimeSeriesChart
              key={m.metric}
              headingLevel={3}
              title={t(`instance.${m.title}`)}
              range={range}
              unit={t(`units.${m.unit}`)}
              yAxisLabel={t(`instance.${m.axis}`)}
              digits={m.digits}
              yDomain={data ? [0, data.yMax] : undefined}
              series={data ? instanceChartSeries(data, perGpu, labels) : []}
              emphasis={perGpu ? [AVERAGE_KEY] : []}
              variant={perGpu ? "line" : "area"}
              loading={!q || q.isPending}
              error={q?.error && !data ? t("loadError") : null}
              emptyMessage={t("instance.empty")}
            />
          );
        })}
      </div>
    </section>
  );
}
