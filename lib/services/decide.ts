/**
 * The autoscaler's decision for one service, as a pure function of the observed load and the service's state
 * (tested on its own; the pass in autoscaler.ts reads the inputs and writes the outcome).
 *
 * desired = ceil(metric / target) over the stable window (60 s). The panic window (6 s) scales up at once when
 * its load is at least twice what the ready replicas take; otherwise a scale-up waits out the scale-up delay
 * since the last one, and a scale-down happens only when the recommendation has stayed below the current size
 * for the scale-down delay. To zero only after the grace period without requests; a held request (scale from
 * zero) gets a replica at once. Always within min..max.
 */
export const STABLE_WINDOW_S = 60;
export const PANIC_WINDOW_S = 6;
export const PANIC_THRESHOLD = 2;

export type ScalingInput = {
  now: Date;
  current: number;
  ready: number;
  min: number;
  max: number;
  target: number;
  stableMetric: number;
  panicMetric: number;
  /** Requests waiting in a gateway for a replica (scale from zero). */
  waiting: number;
  lastRequestAt: Date | null;
  lastScaleUpAt: Date | null;
  lastAtOrAboveAt: Date | null;
  scaleUpDelayS: number;
  scaleDownDelayS: number;
  graceS: number;
};

export type ScalingDecision = {
  desired: number;
  kind: "none" | "scaled_up" | "panic_scale_up" | "scale_from_zero" | "scaled_down" | "scaled_to_zero";
  /** The recommendation was at or above the current size (resets the scale-down delay). */
  atOrAbove: boolean;
};

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const since = (now: Date, t: Date | null) => (t ? (now.getTime() - t.getTime()) / 1000 : Infinity);

export function decideScale(i: ScalingInput): ScalingDecision {
  const stableWant = Math.ceil(i.stableMetric / i.target - 1e-9);
  const panicWant = Math.ceil(i.panicMetric / i.target - 1e-9);
  const recentTraffic = since(i.now, i.lastRequestAt) < i.graceS || i.waiting > 0;
  // A service with recent traffic keeps at least one replica even with min 0 (until the grace period ends).
  const floor = Math.max(i.min, recentTraffic ? 1 : 0);
  const want = clamp(Math.max(stableWant, floor), floor, i.max);
  const atOrAbove = want >= i.current;

  if (i.current === 0 && (i.waiting > 0 || panicWant > 0)) {
    return { desired: clamp(Math.max(1, panicWant), 1, i.max), kind: "scale_from_zero", atOrAbove: true };
  }
  // The grace period without a request ends the service's replicas (min 0), whatever the stable window says.
  if (!recentTraffic && i.min === 0 && i.current > 0) {
    return { desired: 0, kind: "scaled_to_zero", atOrAbove: false };
  }
  const capacity = Math.max(i.ready, 0) * i.target;
  const panic = i.panicMetric > 0 && i.panicMetric >= PANIC_THRESHOLD * Math.max(capacity, i.target * 0.5);
  if (panic && i.ready > 0) {
    const to = clamp(Math.max(panicWant, want, i.current), floor, i.max);
    if (to > i.current) return { desired: to, kind: "panic_scale_up", atOrAbove: true };
    // In panic, never scale down.
    return { desired: i.current, kind: "none", atOrAbove: true };
  }
  if (want > i.current) {
    if (since(i.now, i.lastScaleUpAt) < i.scaleUpDelayS)
      return { desired: i.current, kind: "none", atOrAbove };
    return { desired: want, kind: "scaled_up", atOrAbove };
  }
  if (want < i.current) {
    if (since(i.now, i.lastAtOrAboveAt) < i.scaleDownDelayS) {
      return { desired: i.current, kind: "none", atOrAbove };
    }
    return { desired: want, kind: "scaled_down", atOrAbove };
  }
  return { desired: i.current, kind: "none", atOrAbove };
}
