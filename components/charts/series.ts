/**
 * Pure shaping between the API's downsampled series and what recharts draws. Kept free of React and of the
 * server so the chart, its accessible summary and the unit tests read the very same numbers.
 */
export type SeriesPoint = { t: number; v: number | null };
export type ChartSeries = { key: string; label: string; points: SeriesPoint[] };
/** One row per timestamp; a series missing at that time is null so the line shows a gap, not a fake value. */
export type ChartRow = { t: number } & { [seriesKey: string]: number | null };

export type SeriesSummary = {
  key: string;
  label: string;
  /** Points that carry a value (gaps are not counted). */
  count: number;
  min: number | null;
  mean: number | null;
  max: number | null;
  /** The value at the newest timestamp that has one. */
  latest: number | null;
  latestAt: number | null;
};

/** Merge series on their timestamps into recharts rows, oldest first. */
export function toChartRows(series: readonly ChartSeries[]): ChartRow[] {
  const byTime = new Map<number, ChartRow>();
  for (const s of series) {
    for (const p of s.points) {
      let row = byTime.get(p.t);
      if (!row) {
        row = { t: p.t } as ChartRow;
        byTime.set(p.t, row);
      }
      row[s.key] = p.v;
    }
  }
  const rows = [...byTime.values()].sort((a, b) => a.t - b.t);
  for (const row of rows) {
    for (const s of series) if (!(s.key in row)) row[s.key] = null;
  }
  return rows;
}

export function summarize(series: ChartSeries): SeriesSummary {
  let count = 0;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let latest: number | null = null;
  let latestAt: number | null = null;
  for (const p of series.points) {
    if (p.v === null || !Number.isFinite(p.v)) continue;
    count++;
    sum += p.v;
    if (p.v < min) min = p.v;
    if (p.v > max) max = p.v;
    if (latestAt === null || p.t >= latestAt) {
      latest = p.v;
      latestAt = p.t;
    }
  }
  if (count === 0) {
    return {
      key: series.key,
      label: series.label,
      count,
      min: null,
      mean: null,
      max: null,
      latest,
      latestAt,
    };
  }
  return { key: series.key, label: series.label, count, min, mean: sum / count, max, latest, latestAt };
}

export function hasSamples(series: readonly ChartSeries[]): boolean {
  return series.some((s) => s.points.some((p) => p.v !== null));
}
