"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/**
 * TimeSeriesChart's picture: recharts (about 130 kB gzip) is fetched, and the picture drawn, once its place
 * scrolls into view, by the pages that draw a chart. The frame around it (title, summary table with the exact
 * values) is not a client component and keeps the place's height, so a server page's chart ships only this
 * loader and nothing moves when the picture arrives; its props cross to the client, hence keys rather than
 * functions or sets. Drawing three pictures below the fold during the load was most of the instance and queues
 * pages' blocking time (issue 13).
 */
export const LazyTimeSeriesPlot = lazyClient(
  () => import("./time-series-plot").then((m) => m.TimeSeriesPlot),
  undefined,
  { when: "visible" },
);
