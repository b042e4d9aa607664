/** Upper bounds (ms) of the gateway's latency buckets; the last bucket is everything above the last bound. */
export const LATENCY_BUCKETS_MS = [
  5, 10, 25, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 2000, 5000, 10_000, 30_000,
];

export function emptyHistogram(): number[] {
  return new Array(LATENCY_BUCKETS_MS.length + 1).fill(0);
}

export function bucketOf(ms: number): number {
  const i = LATENCY_BUCKETS_MS.findIndex((b) => ms <= b);
  return i === -1 ? LATENCY_BUCKETS_MS.length : i;
}

/**
 * The q-quantile (0..1) of a histogram, interpolated linearly inside its bucket (the way Prometheus'
 * histogram_quantile does); null without samples. Above the last bound it answers that bound.
 */
export function quantile(hist: number[], q: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    const n = hist[i] ?? 0;
    if (seen + n >= rank && n > 0) {
      const lo = i === 0 ? 0 : (LATENCY_BUCKETS_MS[i - 1] as number);
      const hi = LATENCY_BUCKETS_MS[i] ?? lo;
      return lo + ((hi - lo) * (rank - seen)) / n;
    }
    seen += n;
  }
  return LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1] as number;
}
