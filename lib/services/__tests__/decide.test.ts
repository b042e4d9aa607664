import { describe, expect, it } from "vitest";
import { decideScale, type ScalingInput } from "@/lib/services";

const now = new Date("2030-01-06T09:00:00Z");
const ago = (s: number) => new Date(now.getTime() - s * 1000);
const base: ScalingInput = {
  now,
  current: 2,
  ready: 2,
  min: 0,
  max: 10,
  target: 4,
  stableMetric: 8,
  panicMetric: 8,
  waiting: 0,
  lastRequestAt: ago(1),
  lastScaleUpAt: ago(600),
  lastAtOrAboveAt: ago(1),
  scaleUpDelayS: 0,
  scaleDownDelayS: 30,
  graceS: 60,
};

describe("decideScale", () => {
  it("desired = ceil(stable metric / target)", () => {
    expect(decideScale({ ...base, stableMetric: 13, panicMetric: 13 })).toMatchObject({
      desired: 4,
      kind: "scaled_up",
    });
    expect(decideScale(base)).toMatchObject({ desired: 2, kind: "none" });
  });

  it("a burst ≥ 2× the ready capacity over the panic window scales up at once, even inside the scale-up delay", () => {
    const d = decideScale({
      ...base,
      stableMetric: 9,
      panicMetric: 30,
      lastScaleUpAt: ago(1),
      scaleUpDelayS: 60,
    });
    expect(d).toMatchObject({ desired: 8, kind: "panic_scale_up" });
    // Below 2× capacity the scale-up delay holds.
    const calm = decideScale({
      ...base,
      stableMetric: 12,
      panicMetric: 12,
      lastScaleUpAt: ago(1),
      scaleUpDelayS: 60,
    });
    expect(calm).toMatchObject({ desired: 2, kind: "none" });
  });

  it("scales down only after the recommendation stayed lower for the scale-down delay", () => {
    const low = { ...base, stableMetric: 2, panicMetric: 0 };
    expect(decideScale({ ...low, lastAtOrAboveAt: ago(10) })).toMatchObject({ desired: 2, kind: "none" });
    expect(decideScale({ ...low, lastAtOrAboveAt: ago(31) })).toMatchObject({
      desired: 1,
      kind: "scaled_down",
    });
  });

  it("to zero only after the grace period without requests, and never below min", () => {
    const idle = { ...base, stableMetric: 1, panicMetric: 0, lastAtOrAboveAt: ago(120) };
    expect(decideScale({ ...idle, lastRequestAt: ago(59) })).toMatchObject({ desired: 1 });
    expect(decideScale({ ...idle, lastRequestAt: ago(61) })).toMatchObject({
      desired: 0,
      kind: "scaled_to_zero",
    });
    expect(decideScale({ ...idle, lastRequestAt: ago(61), min: 1 })).toMatchObject({ desired: 1 });
  });

  it("a held request scales from zero at once; max caps every decision", () => {
    const zero = { ...base, current: 0, ready: 0, stableMetric: 0, panicMetric: 0, lastRequestAt: null };
    expect(decideScale({ ...zero, waiting: 1 })).toMatchObject({ desired: 1, kind: "scale_from_zero" });
    expect(decideScale({ ...zero, waiting: 0 })).toMatchObject({ desired: 0, kind: "none" });
    expect(decideScale({ ...base, stableMetric: 400, panicMetric: 400 }).desired).toBe(10);
  });
});
