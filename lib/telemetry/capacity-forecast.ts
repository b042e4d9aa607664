/**
 * The capacity forecast's arithmetic, apart from the database so it can be checked by hand: an ordinary
 * least-squares line through the daily peaks of GPUs in use (day 0 = the oldest of the window), extended
 * until it meets the capacity. Deliberately simple and explainable: one trend, no seasonality.
 */
export type Trend = {
  /** GPUs per day the daily peak grows by (negative: shrinking). */
  slopePerDay: number;
  /** The line's value today (the last day of the window). */
  todayGpus: number;
  /**
   * Whole days from today until the line reaches the capacity: 0 when the peak already meets it, null
   * when the line never does (flat or falling, or no capacity to compare with).
   */
  daysToFull: number | null;
};

export function linearTrend(dailyPeaks: number[], capacityGpus: number): Trend {
  const n = dailyPeaks.length;
  if (n === 0) return { slopePerDay: 0, todayGpus: 0, daysToFull: capacityGpus > 0 ? null : 0 };
  const meanX = (n - 1) / 2;
  const meanY = dailyPeaks.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  dailyPeaks.forEach((y, x) => {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  });
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const today = meanY + slope * (n - 1 - meanX);
  const latest = dailyPeaks[n - 1] ?? 0;
  let daysToFull: number | null;
  if (latest >= capacityGpus || today >= capacityGpus) daysToFull = 0;
  else if (slope <= 1e-9) daysToFull = null;
  else daysToFull = Math.ceil((capacityGpus - today) / slope);
  return { slopePerDay: slope, todayGpus: Math.max(0, today), daysToFull };
}
