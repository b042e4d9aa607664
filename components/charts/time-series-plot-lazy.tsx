"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/**
 * TimeSeriesChart's picture: recharts (about 130 kB gzip) is fetched after the page has loaded, by the pages
 * that draw a chart. The frame around it (title, summary table) is not a client component, so a server page's
 * chart ships only this loader; its props cross to the client, hence keys rather than functions or sets.
 */
export const LazyTimeSeriesPlot = lazyClient(() =>
  import("./time-series-plot").then((m) => m.TimeSeriesPlot),
);
