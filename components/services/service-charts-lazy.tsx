"use client";

// The skeleton by its own path: the charts' index would pull recharts into the page's first load.
import { ChartSkeleton } from "@/components/charts/chart-skeleton";
import { lazyClient } from "@/components/ui/lazy-client";

function Loading() {
  return <ChartSkeleton height={260} />;
}

/** The service charts, fetched after the page is interactive, so recharts is not in its first-load JS. */
export const ServiceChartsLazy = lazyClient(
  () => import("./service-charts").then((m) => m.ServiceCharts),
  Loading,
);
