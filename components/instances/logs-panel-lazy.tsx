"use client";

import dynamic from "next/dynamic";
import { LogsFrame, LogsLoading } from "./logs-frame";

/**
 * The instance page's logs, fetched after the page has loaded: they sit below the charts and read their lines
 * from the API anyway (the server render showed "loading" before too), so their code stays out of the page's
 * first-load JavaScript (issue 13's 150 kB budget).
 */
export const LazyLogsPanel = dynamic(() => import("./logs-panel").then((m) => m.LogsPanel), {
  ssr: false,
  loading: () => (
    <LogsFrame>
      <LogsLoading />
    </LogsFrame>
  ),
});
