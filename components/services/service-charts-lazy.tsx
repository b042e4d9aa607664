"use client";

import dynamic from "next/dynamic";
// The skeleton by its own path: the charts' index would pull recharts into the page's first load.
import { ChartSkeleton } from "@/components/charts/chart-skeleton";

/** The service charts, fetched after the page is interactive, so recharts is not in its first-load JS. */
export const ServiceChartsLazy = dynamic(() => import("./service-charts").then((m) => m.ServiceCharts), {
  ssr: false,
  loading: () => <ChartSkeleton height={260} />,
});
