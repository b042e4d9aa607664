"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/** DailyCostChart's bars: recharts (about 130 kB gzip) is fetched after the page has loaded. */
export const LazyDailyCostPlot = lazyClient(() => import("./daily-cost-plot").then((m) => m.DailyCostPlot));
