/**
 * Chart ranges and their SQL resolution. Short ranges read raw 10-second samples, long ones the 5-minute
 * rollups; the bin width is the smallest multiple of the source resolution that keeps a series at or under
 * ~600 points (window / bin + 1 partial bin at the edge).
 */
export const CHART_RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

export const MAX_POINTS = 600;
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

type RangeSpec = { seconds: number; source: "raw" | "rollup"; binSeconds: number };

export const RANGE_SPECS: Readonly<Record<ChartRange, RangeSpec>> = {
  "1h": { seconds: HOUR, source: "raw", binSeconds: 10 },
  "6h": { seconds: 6 * HOUR, source: "raw", binSeconds: 40 },
  "24h": { seconds: DAY, source: "raw", binSeconds: 150 },
  "7d": { seconds: 7 * DAY, source: "rollup", binSeconds: 20 * MINUTE },
  "30d": { seconds: 30 * DAY, source: "rollup", binSeconds: 75 * MINUTE },
};

/** Coarser buckets for the queue-wait and fleet charts: percentiles need a handful of waits per bucket. */
export const ANALYTICS_BIN_SECONDS: Readonly<Record<ChartRange, number>> = {
  "1h": 5 * MINUTE,
  "6h": 15 * MINUTE,
  "24h": HOUR,
  "7d": 6 * HOUR,
  "30d": DAY,
};

export function rangeWindow(range: ChartRange, now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - RANGE_SPECS[range].seconds * 1000), to: now };
}
