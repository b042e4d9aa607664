"use client";

import { useTranslations } from "next-intl";
import { type ChartRange, type ChartSeries, TimeSeriesChart } from "@/components/charts";
import type { ServiceSeriesPoint } from "@/lib/services";

/**
 * The service page's pictures over its range: requests per second, p50/p95/p99 latency, and replicas
 * desired, launched and ready. recharts comes with this module only, which the page loads lazily (service-charts-lazy.tsx).
 */
export function ServiceCharts({ points, range }: { points: ServiceSeriesPoint[]; range: ChartRange }) {
  const t = useTranslations("Services.charts");
  const series = (key: string, label: string, v: (p: ServiceSeriesPoint) => number | null) => ({
    key,
    label,
    points: points.map((p) => ({ t: p.t, v: v(p) })),
  });
  const traffic = points.some((p) => p.rps > 0);
  const charts: Array<{
    id: string;
    title: string;
    unit: string;
    axis: string;
    digits: number;
    series: ChartSeries[];
  }> = [
    {
      id: "rps",
      title: t("rps"),
      unit: t("rpsUnit"),
      axis: t("rpsAxis"),
      digits: 2,
      series: traffic ? [series("rps", t("rps"), (p) => p.rps)] : [],
    },
    {
      id: "latency",
      title: t("latency"),
      unit: t("msUnit"),
      axis: t("p95Axis"),
      digits: 0,
      series: traffic
        ? [
            series("p50", t("p50"), (p) => p.p50Ms),
            series("p95", t("p95"), (p) => p.p95Ms),
            series("p99", t("p99"), (p) => p.p99Ms),
          ]
        : [],
    },
    {
      id: "replicas",
      title: t("replicas"),
      unit: "",
      axis: t("replicasAxis"),
      digits: 0,
      series: [
        series("desired", t("desired"), (p) => p.desired),
        series("launched", t("launched"), (p) => p.launched),
        series("ready", t("ready"), (p) => p.ready),
      ],
    },
  ];
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      {charts.map((c) => (
        <TimeSeriesChart
          key={c.id}
          headingLevel={3}
          title={c.title}
          range={range}
          unit={c.unit}
          yAxisLabel={c.axis}
          digits={c.digits}
          yDomain={[0, "auto"]}
          series={c.series}
          variant={c.id === "rps" ? "area" : "line"}
          emptyMessage={t("empty")}
        />
      ))}
    </div>
  );
}
