"use client";

import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ChartRange, parseRange, TimeSeriesChart } from "@/components/charts";
import {
  AVERAGE_KEY,
  type InstanceSeriesData,
  instanceChartSeries,
} from "@/components/charts/instance-series";
import { useLiveQuery } from "@/components/ui/live-query";
import {
  INSTANCE_METRICS,
  InstanceChartsFrame,
  type InstanceMetric,
  metricsRefetchInterval,
} from "./instance-charts-frame";

type MetricResponse = InstanceSeriesData & { yMax: number };

async function fetchMetric(
  org: string,
  id: string,
  metric: InstanceMetric,
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
  const metric = (m: InstanceMetric) => ({
    key: ["instance-metrics", org, instanceId, m, range],
    fetch: () => fetchMetric(org, instanceId, m, range),
    every: metricsRefetchInterval(range),
  });
  // One query per entry of INSTANCE_METRICS, in its order.
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
    <InstanceChartsFrame range={range} perGpu={perGpu} gpuCount={gpuCount}>
      {INSTANCE_METRICS.map((m, i) => {
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
    </InstanceChartsFrame>
  );
}
