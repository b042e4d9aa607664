import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { compareOfferings, listOfferings, parseCompareKeys } from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, gpuModels } from "@/lib/db/schema";
import { newTenant } from "@/test/factories";
import { clockAt, makeCatalog, type TestCatalog } from "./fixture";

const HOUR = 3_600_000;
let c: TestCatalog;
let ctx: Ctx;
let slug: string;

beforeAll(async () => {
  c = await makeCatalog();
  const tenant = await newTenant("cmp");
  ctx = clockAt(tenant.ctx, c.now);
  slug = tenant.org.slug;
});

describe("catalog comparison figures", () => {
  it("prices each offering against its model's market median, and estimates energy and CO₂e per hour", async () => {
    await getDb().update(gpuModels).set({ marketMedianUsdPerGpuHour: 2.5 }).where(eq(gpuModels.id, c.BIG));
    const page = await listOfferings(ctx, slug, { region: [c.A], gpu: [c.BIG, c.SMALL], pageSize: 100 });
    const by = Object.fromEntries(page.items.map((o) => [o.instanceTypeId, o]));
    const big2 = by[`${c.BIG}.2x`];
    // 2 GPUs at 2.00/GPU-h against a 2.50 median: 20 % below.
    expect(big2?.vsMarket).toBeCloseTo(-0.2, 5);
    expect(big2?.marketMedianPerGpu).toBe(2.5);
    // 700 W × 2 GPUs × PUE 1.2 = 1.68 kWh per hour; × 100 g/kWh.
    expect(big2?.energyKwh).toBeCloseTo(1.68, 5);
    expect(big2?.co2eGrams).toBeCloseTo(168, 3);
    expect(big2?.energyEstimatedTdp).toBe(false);
    // 3 of 7 slices of a 700 W board.
    expect(by[`${c.BIG}.mig-3g.40gb`]?.energyKwh).toBeCloseTo((0.7 * 3 * 1.2) / 7, 5);
    // No TDP published: the 300 W fallback, flagged; no median: no position.
    const small = by[`${c.SMALL}.1x`];
    expect(small?.energyEstimatedTdp).toBe(true);
    expect(small?.energyKwh).toBeCloseTo(0.36, 5);
    expect(small?.vsMarket).toBeNull();
  });

  it("sorts by energy, CO₂e, availability, memory and GPU in both directions", async () => {
    const list = async (sort: string) =>
      (
        await listOfferings(ctx, slug, {
          region: [c.A, c.B],
          gpu: [c.BIG, c.SMALL],
          pageSize: 100,
          sort: sort as "price_asc",
        })
      ).items;
    for (const [metric, value] of [
      ["energy", (o: { energyKwh: number }) => o.energyKwh],
      ["co2", (o: { co2eGrams: number }) => o.co2eGrams],
      ["available", (o: { available: number }) => o.available],
      ["memory", (o: { gpuMemoryGib: number }) => o.gpuMemoryGib],
    ] as const) {
      const asc = (await list(`${metric}_asc`)).map(value as (o: unknown) => number);
      const desc = (await list(`${metric}_desc`)).map(value as (o: unknown) => number);
      expect(asc.length).toBeGreaterThan(5);
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      expect(desc).toEqual([...desc].sort((a, b) => b - a));
    }
    const names = (await list("gpu_desc")).map((o) => o.gpuModelName);
    expect(names[0]).toBe(`Small ${c.id}`);
    expect(names.at(-1)).toBe(`Big ${c.id}`);
  });
});

describe("compareOfferings", () => {
  it("returns the asked offerings in order with a week of availability replayed from allocations", async () => {
    const gpu0 = c.gpu(c.nodes.bigA1.id, 0);
    // Held from 3 days ago until 1 day ago: one whole GPU fewer in that window.
    await getDb()
      .insert(gpuAllocations)
      .values({
        orgId: randomUUID(),
        instanceId: randomUUID(),
        nodeId: gpu0.nodeId,
        nodeGpuId: gpu0.id,
        slices: 7,
        allocatedAt: new Date(c.now.getTime() - 72 * HOUR),
        releasedAt: new Date(c.now.getTime() - 24 * HOUR),
      });
    const keys = [
      { instanceTypeId: `${c.BIG}.1x`, regionCode: c.A },
      { instanceTypeId: `${c.BIG}.mig-1g.10gb`, regionCode: c.A },
      { instanceTypeId: "nope.1x", regionCode: c.A },
    ];
    const { items, missing } = await compareOfferings(ctx, slug, keys);
    expect(items.map((o) => o.instanceTypeId)).toEqual([`${c.BIG}.1x`, `${c.BIG}.mig-1g.10gb`]);
    expect(missing).toEqual([keys[2]]);
    const [whole, mig] = items;
    expect(whole?.history).toHaveLength(29);
    expect(whole?.history.at(-1)).toEqual({ at: c.now, available: 6 });
    const at = (hoursAgo: number) =>
      whole?.history.find((p) => p.at.getTime() === c.now.getTime() - hoursAgo * HOUR)?.available;
    expect(at(48)).toBe(5);
    expect(at(168)).toBe(6);
    expect(new Set(mig?.history.map((p) => p.available))).toEqual(new Set([14]));
  });

  it("refuses a user outside the organization", async () => {
    const stranger = await newTenant("cmp-x");
    await expect(
      compareOfferings(clockAt(stranger.ctx, c.now), slug, [
        { instanceTypeId: `${c.BIG}.1x`, regionCode: c.A },
      ]),
    ).rejects.toThrow(/Organization not found/);
  });
});

describe("parseCompareKeys", () => {
  it("keeps the first four valid, distinct keys and counts the rest", () => {
    const o = ["a.1x@r1", "bad key", "a.1x@r1", "b.1x@r1", "c.1x@r2,d.1x@r2", "e.1x@r3"];
    const { keys, dropped } = parseCompareKeys({ o });
    expect(keys.map((k) => `${k.instanceTypeId}@${k.regionCode}`)).toEqual([
      "a.1x@r1",
      "b.1x@r1",
      "c.1x@r2",
      "d.1x@r2",
    ]);
    expect(dropped).toBe(1);
  });
});
