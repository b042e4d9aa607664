import { describe, expect, it } from "vitest";
import { hasSamples, summarize, toChartRows } from "../series";

const series = (key: string, points: Array<[number, number | null]>) => ({
  key,
  label: key.toUpperCase(),
  points: points.map(([t, v]) => ({ t, v })),
});

describe("toChartRows", () => {
  it("keeps the first and last points and merges series on their timestamps, oldest first", () => {
    const rows = toChartRows([
      series("gpu0", [
        [30, 3],
        [10, 1],
        [20, 2],
      ]),
      series("avg", [
        [10, 1.5],
        [20, 2.5],
        [30, 3.5],
      ]),
    ]);
    expect(rows).toEqual([
      { t: 10, gpu0: 1, avg: 1.5 },
      { t: 20, gpu0: 2, avg: 2.5 },
      { t: 30, gpu0: 3, avg: 3.5 },
    ]);
  });

  it("fills a series missing at a timestamp with null (a gap), never with a neighbour's value", () => {
    const rows = toChartRows([
      series("a", [
        [1, 5],
        [2, 6],
      ]),
      series("b", [[2, 7]]),
    ]);
    expect(rows).toEqual([
      { t: 1, a: 5, b: null },
      { t: 2, a: 6, b: 7 },
    ]);
  });

  it("gives no rows for no series and one row per timestamp for a single point", () => {
    expect(toChartRows([])).toEqual([]);
    expect(toChartRows([series("a", [[5, 0]])])).toEqual([{ t: 5, a: 0 }]);
  });
});

describe("summarize", () => {
  it("takes min, mean and max over every value including the first and the last", () => {
    const s = summarize(
      series("a", [
        [1, 10],
        [2, 20],
        [3, 30],
        [4, 40],
      ]),
    );
    expect(s).toMatchObject({ count: 4, min: 10, max: 40, mean: 25, latest: 40, latestAt: 4 });
  });

  it("ignores gaps, and the latest value is the newest non-null one even when points are unordered", () => {
    const s = summarize(
      series("a", [
        [3, 7],
        [1, 1],
        [4, null],
        [2, 0],
      ]),
    );
    expect(s).toMatchObject({ count: 3, min: 0, max: 7, latest: 7, latestAt: 3 });
    expect(s.mean).toBeCloseTo(8 / 3);
  });

  it("reports nothing (not zero) for a series without values", () => {
    expect(summarize(series("a", [[1, null]]))).toMatchObject({
      count: 0,
      min: null,
      mean: null,
      max: null,
      latest: null,
    });
  });
});

describe("hasSamples", () => {
  it("is false for series made only of gaps and true once one value exists", () => {
    expect(hasSamples([series("a", [[1, null]]), series("b", [])])).toBe(false);
    expect(hasSamples([series("a", [[1, null]]), series("b", [[2, 0]])])).toBe(true);
  });
});
