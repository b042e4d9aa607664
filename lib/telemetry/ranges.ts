/**
 * Chart ranges and their SQL resolution. Each range reads the coarsest source that still gives it more than
 * MIN_POINTS points: raw 10-second samples for 1 h, else a rollup level (1 min, 20 min, 1 h: rollup.ts), so a
 * range reads at most a few hundred rows per GPU (≤ MAX_ROWS_PER_GPU); the bin width is the smallest multiple of
 * the source resolution that keeps a series at or under ~600 points (window / bin + 1 partial bin at the edge).
 */
export const CHART_RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

export const MAX_POINTS = 600;
export const MIN_POINTS = 300;
export const MAX_ROWS_PER_GPU = 2000;
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** Source resolutions in seconds: 10 = raw samples, the others metric_rollup_levels.level_s. */
export const SOURCE_LEVELS = [10, 60, 20 * MINUTE, HOUR] as const;
export type SourceLevel = (typeof SOURCE_LEVELS)[number];

type RangeSpec = { seconds: number; source: "raw" | "rollup"; level: SourceLevel; binSeconds: number };

/** The coarsest level with more than MIN_POINTS buckets in the range (raw samples when none has). */
export function levelFor(rangeSeconds: number): SourceLevel {
  return [...SOURCE_LEVELS].reverse().find((l) => rangeSeconds / l > MIN_POINTS) ?? 10;
}

function spec(rangeSeconds: number): RangeSpec {
  const level = levelFor(rangeSeconds);
  const binSeconds = Math.ceil(rangeSeconds / MAX_POINTS / level) * level;
  return { seconds: rangeSeconds, source: level === 10 ? "raw" : "rollup", level, binSeconds };
}

export const RANGE_SPECS: Readonly<Record<ChartRange, RangeSpec>> = {
  "1h": spec(HOUR),
  "6h": spec(6 * HOUR),
  "24h": spec(DAY),
  "7d": spec(7 * DAY),
  "30d": spec(30 * DAY),
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
