/**
 * Chart ranges and their SQL resolution. Each range reads the coarsest chart level (10 s, 1 min, 20 min, 1 h:
 * rollup.ts) that still gives it more than MIN_POINTS points. A level row holds every GPU of its bucket, so a
 * range reads at most window / level + 1 rows whatever the GPU count, plus the newest edge's few rows from finer
 * sources (≤ MAX_ROWS for any range up to 30 days); the bin width is the smallest multiple of the level that
 * keeps a series at or under ~600 points (window / bin + 1 partial bin at the edge).
 */
export const CHART_RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

export const MAX_POINTS = 600;
export const MIN_POINTS = 300;
/** Rows a chart may read, for any range up to 30 days and any GPU count (issue 13). */
export const MAX_ROWS = 2000;
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** Chart levels in seconds (metric_chart_levels.level_s; 10 s is the raw samples' own resolution). */
export const SOURCE_LEVELS = [10, 60, 20 * MINUTE, HOUR] as const;
export type SourceLevel = (typeof SOURCE_LEVELS)[number];

type RangeSpec = { seconds: number; source: "rollup"; level: SourceLevel; binSeconds: number };

/** The coarsest level with more than MIN_POINTS buckets in the range (the 10-second one when none has). */
export function levelFor(rangeSeconds: number): SourceLevel {
  return [...SOURCE_LEVELS].reverse().find((l) => rangeSeconds / l > MIN_POINTS) ?? 10;
}

function spec(rangeSeconds: number): RangeSpec {
  const level = levelFor(rangeSeconds);
  const binSeconds = Math.ceil(rangeSeconds / MAX_POINTS / level) * level;
  return { seconds: rangeSeconds, source: "rollup", level, binSeconds };
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
