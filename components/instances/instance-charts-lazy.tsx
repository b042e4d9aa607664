"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/**
 * The instance page's charts, fetched after the page has loaded: they sit below the status, actions and
 * connection details, read their data from the API anyway, and their code (ranges, tables, the chart frame)
 * would otherwise put the page over issue 13's 150 kB first-load budget. recharts follows when a picture
 * scrolls into view.
 * The page passes their frame with loading charts (InstanceChartsLoading), rendered on the server, as the
 * fallback: the same heading, controls and chart titles, so only the summary tables add height when they arrive.
 */
export const LazyInstanceCharts = lazyClient(() => import("./instance-charts").then((m) => m.InstanceCharts));
