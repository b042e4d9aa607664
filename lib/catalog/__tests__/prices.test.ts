import { beforeAll, describe, expect, it } from "vitest";
import { listOfferings, priceAt } from "@/lib/catalog";
import { newTenant } from "@/test/factories";
import { clockAt, makeCatalog, type TestCatalog } from "./fixture";

const DAY = 86_400_000;
let c: TestCatalog;
const at = (days: number) => new Date(c.now.getTime() + days * DAY);

beforeAll(async () => {
  c = await makeCatalog();
});

describe("priceAt (effective dating)", () => {
  it("picks the row in force at the given time", async () => {
    const p = (days: number) => priceAt(`${c.BIG}.1x`, c.A, "on_demand", at(days));
    expect((await p(-120))?.usdPerHour).toBe(3);
    expect((await p(0))?.usdPerHour).toBe(2);
    expect((await p(30))?.usdPerHour).toBe(1.8);
  });

  it("treats effective_to as exclusive and effective_from as inclusive", async () => {
    const boundary = at(-90);
    const row = await priceAt(`${c.BIG}.1x`, c.A, "on_demand", boundary);
    expect(row?.usdPerHour).toBe(2);
    expect(row?.effectiveFrom.getTime()).toBe(boundary.getTime());
    const before = await priceAt(`${c.BIG}.1x`, c.A, "on_demand", new Date(boundary.getTime() - 1));
    expect(before?.usdPerHour).toBe(3);
  });

  it("returns null before the first price and for a pricing model not sold", async () => {
    expect(await priceAt(`${c.BIG}.1x`, c.A, "on_demand", at(-400))).toBeNull();
    expect(await priceAt(`${c.SMALL}.1x`, c.A, "spot", at(0))).toBeNull();
  });

  it("the catalog shows the price in force at the context's clock", async () => {
    const t = await newTenant("px");
    const list = (days: number) =>
      listOfferings(clockAt(t.ctx, at(days)), t.org.slug, { region: [c.A], gpuCount: "1", gpu: [c.BIG] });
    expect((await list(0)).items[0]?.prices.on_demand).toBe(2);
    expect((await list(-120)).items[0]?.prices.on_demand).toBe(3);
    expect((await list(11)).items[0]?.prices.on_demand).toBe(1.8);
    // Before any price took effect the type is not on sale there at all.
    expect((await list(-400)).total).toBe(0);
  });
});
