"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/**
 * The instance page's logs, fetched once they scroll into view: they sit below the charts and read their lines
 * from the API anyway (the server render showed "loading" before too), so their code stays out of the page's
 * first-load JavaScript (issue 13's 150 kB budget) and their first answer out of its load. The page passes the
 * frame with its loading line, rendered on the server, as the fallback.
 */
export const LazyLogsPanel = lazyClient(() => import("./logs-panel").then((m) => m.LogsPanel), undefined, {
  when: "visible",
});
