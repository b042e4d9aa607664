import { CHART_RANGES, type ChartRange } from "@/lib/telemetry/ranges";

export { CHART_RANGES, type ChartRange };

/** A `?range=` value from the URL, or the fallback when it is missing or not one of ours. */
export function parseRange(value: string | null | undefined, fallback: ChartRange = "1h"): ChartRange {
  return (CHART_RANGES as readonly string[]).includes(value ?? "") ? (value as ChartRange) : fallback;
}

/** Ranges up to a day label ticks with the time of day; longer ones with the date. */
export function isShortRange(range: ChartRange): boolean {
  return range === "1h" || range === "6h" || range === "24h";
}
