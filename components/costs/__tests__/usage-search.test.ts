import { describe, expect, it } from "vitest";
import { daysOf, parseUsageSearch } from "../usage-search";

const now = new Date("2030-03-15T10:00:00Z");

describe("parseUsageSearch", () => {
  it("defaults to this month so far, grouped by project, with the included last day made exclusive", () => {
    const p = parseUsageSearch({}, now);
    expect(p.values).toEqual({ from: "2030-03-01", to: "2030-03-15", group: "project", month: "2030-03" });
    expect(p.range).toEqual({ from: new Date("2030-03-01T00:00:00Z"), to: new Date("2030-03-16T00:00:00Z") });
    expect(p.errors).toEqual({});
  });

  it("keeps a valid grouping and month, and falls back on mistyped ones", () => {
    expect(parseUsageSearch({ group: "region", month: "2030-01" }, now).values).toMatchObject({
      group: "region",
      month: "2030-01",
    });
    expect(parseUsageSearch({ group: "colour", month: "2030-13" }, now).values).toMatchObject({
      group: "project",
      month: "2030-03",
    });
  });

  it("reports impossible dates, a reversed range and a range over 366 days at the field", () => {
    expect(parseUsageSearch({ from: "2030-02-31", to: "2030-03-01" }, now)).toMatchObject({
      range: null,
      errors: { from: "badDate" },
    });
    expect(parseUsageSearch({ from: "2030-03-10", to: "2030-03-01" }, now)).toMatchObject({
      range: null,
      errors: { to: "order" },
    });
    expect(parseUsageSearch({ from: "2028-01-01", to: "2030-01-01" }, now)).toMatchObject({
      range: null,
      errors: { to: "tooLong" },
    });
    // One day is a valid range: from and to are both included.
    expect(parseUsageSearch({ from: "2030-03-10", to: "2030-03-10" }, now).range).toEqual({
      from: new Date("2030-03-10T00:00:00Z"),
      to: new Date("2030-03-11T00:00:00Z"),
    });
  });

  it("lists every day of a range for the chart", () => {
    expect(daysOf({ from: new Date("2030-02-27T00:00:00Z"), to: new Date("2030-03-02T00:00:00Z") })).toEqual([
      "2030-02-27",
      "2030-02-28",
      "2030-03-01",
    ]);
  });
});
