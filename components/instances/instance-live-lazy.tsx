"use client";

import { lazyClient } from "@/components/ui/lazy-client";

/**
 * The instance page's live part, fetched after the page has loaded. The page passes InstanceDetail rendered
 * on the server as the fallback, so everything is on screen (and readable without JavaScript) at once, the
 * buttons disabled until this arrives; its code (polling, actions, the confirm dialog) kept the page over
 * issue 13's 150 kB first-load budget.
 */
export const LazyInstanceLive = lazyClient(() => import("./instance-live").then((m) => m.InstanceLive));
