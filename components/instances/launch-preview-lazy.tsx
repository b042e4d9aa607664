"use client";

import { lazyClient } from "@/components/ui/lazy-client";
import { PreviewPending } from "./launch-preview-frame";

/**
 * The launch preview, fetched after the page has loaded: its figures come from the API after hydration
 * anyway (the server render said "loading" before too), so its code and the live-query hook stay out of the
 * launch page's first-load JavaScript (issue 13's 150 kB budget).
 */
export const LazyLaunchPreview = lazyClient(
  () => import("./launch-preview").then((m) => m.LaunchPreview),
  PreviewPending,
);
