"use client";

import dynamic from "next/dynamic";

/** DailyCostChart's bars: recharts (about 130 kB gzip) is fetched after the page has loaded. */
export const LazyDailyCostPlot = dynamic(() => import("./daily-cost-plot").then((m) => m.DailyCostPlot), {
  ssr: false,
});
