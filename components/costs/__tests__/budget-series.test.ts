import { describe, expect, it } from "vitest";
import { budgetSeries } from "../budget-series";

const monthStart = new Date("2030-04-01T00:00:00Z");
const monthEnd = new Date("2030-05-01T00:00:00Z");

describe("budgetSeries", () => {
  it("accumulates daily spend until now, then draws the forecast to the month end", () => {
    const now = new Date("2030-04-03T12:00:00Z");
    const points = budgetSeries({
      monthStart,
      monthEnd,
      now,
      daily: { "2030-04-01": 10, "2030-04-02": 20, "2030-04-03": 5 },
      actualUsd: 36,
      // 660 hours left at 4 $/h.
      forecastUsd: 36 + 660 * 4,
      amountUsd: 500,
    });
    expect(points[0]).toEqual({ t: monthStart.getTime(), actual: 0, forecast: null, budget: 500 });
    expect(points[1]).toMatchObject({ t: Date.parse("2030-04-02T00:00:00Z"), actual: 10 });
    expect(points[2]).toMatchObject({ t: Date.parse("2030-04-03T00:00:00Z"), actual: 30 });
    // Now: the actual includes the unmetered estimate; the forecast starts from it.
    expect(points[3]).toEqual({ t: now.getTime(), actual: 36, forecast: 36, budget: 500 });
    // Half a day later at the forecast's rate (4 $/h).
    expect(points[4]).toMatchObject({
      t: Date.parse("2030-04-04T00:00:00Z"),
      actual: null,
      forecast: 36 + 48,
    });
    const last = points.at(-1);
    expect(last?.t).toBe(monthEnd.getTime());
    expect(last?.forecast).toBe(36 + 660 * 4);
    expect(points.every((p) => p.budget === 500)).toBe(true);
  });

  it("after the month, is all actual with the forecast equal to it", () => {
    const points = budgetSeries({
      monthStart,
      monthEnd,
      now: new Date("2030-05-02T00:00:00Z"),
      daily: { "2030-04-30": 7 },
      actualUsd: 7,
      forecastUsd: 7,
      amountUsd: 5,
    });
    expect(points).toHaveLength(31);
    expect(points.at(-1)).toEqual({ t: monthEnd.getTime(), actual: 7, forecast: 7, budget: 5 });
  });
});
