import { describe, expect, it } from "vitest";
import { catalogSearchParams, parseCatalogFilters } from "@/lib/catalog";

describe("parseCatalogFilters", () => {
  it("reads repeated and comma-separated values, numbers and flags", () => {
    const { filters, ignored } = parseCatalogFilters(
      new URLSearchParams(
        "region=eu-es-mad1&region=eu-de-fra1,uk-lon1&gpu=h100&minMemoryGib=40&gpuCount=mig&pricing=spot&maxPrice=2.5&available=1&sort=per_tflop_desc&page=3&pageSize=50",
      ),
    );
    expect(ignored).toEqual([]);
    expect(filters).toEqual({
      region: ["eu-es-mad1", "eu-de-fra1", "uk-lon1"],
      jurisdiction: [],
      gpu: ["h100"],
      minMemoryGib: 40,
      gpuCount: "mig",
      pricing: "spot",
      maxPrice: 2.5,
      available: true,
      sort: "per_tflop_desc",
      page: 3,
      pageSize: 50,
    });
  });

  it("drops and reports invalid values instead of failing, keeping the valid ones", () => {
    const { filters, ignored } = parseCatalogFilters({
      region: "EU'; drop table regions;--",
      jurisdiction: "EU",
      minMemoryGib: "lots",
      gpuCount: "3",
      pricing: "free",
      maxPrice: "-1",
      sort: "random",
      page: "0",
      pageSize: "7",
      available: "maybe",
    });
    expect(ignored.sort()).toEqual(
      [
        "available",
        "gpuCount",
        "maxPrice",
        "minMemoryGib",
        "page",
        "pageSize",
        "pricing",
        "region",
        "sort",
      ].sort(),
    );
    expect(filters).toMatchObject({
      region: [],
      jurisdiction: ["EU"],
      pricing: "on_demand",
      page: 1,
      pageSize: 20,
    });
    expect(filters.minMemoryGib).toBeUndefined();
  });

  it('treats empty form fields ("Any") as absent, not as errors', () => {
    const { filters, ignored } = parseCatalogFilters({
      gpu: "",
      minMemoryGib: "",
      gpuCount: "",
      maxPrice: "",
    });
    expect(ignored).toEqual([]);
    expect(filters.gpu).toEqual([]);
    expect(filters.maxPrice).toBeUndefined();
  });

  it("round-trips through search params, leaving defaults out", () => {
    const { filters } = parseCatalogFilters({ jurisdiction: "EU", gpu: ["h100", "h200"], available: "on" });
    const qs = catalogSearchParams(filters).toString();
    expect(qs).toBe("jurisdiction=EU&gpu=h100&gpu=h200&available=1");
    expect(parseCatalogFilters(new URLSearchParams(qs)).filters).toEqual(filters);
  });
});
