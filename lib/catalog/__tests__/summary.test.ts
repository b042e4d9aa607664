import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CatalogFilterInput,
  listOfferings,
  listOfferingsReference,
  schedulePriceChange,
} from "@/lib/catalog";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instanceTypes, prices } from "@/lib/db/schema";
import { mulberry32 } from "@/lib/provisioning";
import { newTenant } from "@/test/factories";
import { makeUser } from "../../admin/__tests__/fixtures";
import { allocate, clockAt, makeCatalog, type TestCatalog } from "./fixture";

/*
 * offering_summaries (drizzle 0028) is kept by triggers on prices, instance types, GPU models and regions; the
 * catalog reads nothing else for prices and facts. Each test changes one source and reads listOfferings at
 * once, so each fails when that source's maintenance is missing; availability is kept from node_capacity at
 * commit (drizzle 0031, availability.test.ts).
 */

const DAY = 86_400_000;
let ctx: Ctx;
let slug: string;

beforeAll(async () => {
  const tenant = await newTenant("summary");
  ctx = tenant.ctx;
  slug = tenant.org.slug;
});

const at = (c: TestCatalog, ms = 0) => clockAt(ctx, new Date(c.now.getTime() + ms));
const mine = (c: TestCatalog): CatalogFilterInput => ({ gpu: [c.BIG, c.SMALL], pageSize: 100 });
const find = async (c: TestCatalog, cctx: Ctx, key: string, f: CatalogFilterInput = {}) =>
  (await listOfferings(cctx, slug, { ...mine(c), ...f })).items.find(
    (o) => `${o.instanceTypeId}@${o.regionCode}` === key,
  );

describe("listOfferings follows every change at once", () => {
  it("a price edited in place, a price added for another pricing model, a price removed", async () => {
    const c = await makeCatalog();
    const key = `${c.BIG}.2x@${c.B}`;
    expect((await find(c, at(c), key))?.prices).toEqual({
      on_demand: 4.4,
      spot: 2.2,
      reserved_1m: null,
      reserved_1y: null,
    });
    await getDb().execute(sql`update prices set usd_per_hour = 4.1 where instance_type_id = ${`${c.BIG}.2x`}
      and region_code = ${c.B} and pricing_model = 'on_demand'`);
    await getDb()
      .insert(prices)
      .values({
        instanceTypeId: `${c.BIG}.2x`,
        regionCode: c.B,
        pricingModel: "reserved_1m",
        usdPerHour: "3.5",
        effectiveFrom: new Date(c.now.getTime() - DAY),
      });
    const changed = await find(c, at(c), key);
    expect(changed?.price).toBe(4.1);
    expect(changed?.prices).toEqual({ on_demand: 4.1, spot: 2.2, reserved_1m: 3.5, reserved_1y: null });
    expect((await find(c, at(c), key, { pricing: "reserved_1m" }))?.price).toBe(3.5);

    await getDb().execute(sql`delete from prices where instance_type_id = ${`${c.BIG}.2x`}
      and region_code = ${c.B} and pricing_model <> 'spot'`);
    expect(await find(c, at(c), key)).toBeUndefined();
    expect((await find(c, at(c), key, { pricing: "spot" }))?.prices.on_demand).toBeNull();
  });

  it("a future-dated price takes effect at its instant, and a scheduled change too", async () => {
    const c = await makeCatalog();
    const key = `${c.BIG}.1x@${c.A}`;
    // The fixture's cut to 1.80 starts 10 days from now; the row in force has no end (the fixture overlaps).
    expect((await find(c, at(c), key))?.price).toBe(2);
    expect((await find(c, at(c, 10 * DAY - 1), key))?.price).toBe(2);
    expect((await find(c, at(c, 10 * DAY), key))?.price).toBe(1.8);

    const op = {
      ...(await makeUser(getDb(), { isOperator: true, label: "sumop" })).ctx,
      now: () => c.now,
    };
    const from = new Date(c.now.getTime() + 3_600_000);
    await schedulePriceChange(op, {
      instanceTypeId: `${c.SMALL}.4x`,
      regionCode: c.B,
      pricingModel: "on_demand",
      usdPerHour: 1.9,
      effectiveFrom: from.toISOString(),
    });
    const small = `${c.SMALL}.4x@${c.B}`;
    expect((await find(c, at(c), small))?.price).toBe(2.4);
    expect((await find(c, at(c, 3_600_000 - 1), small))?.price).toBe(2.4);
    expect((await find(c, at(c, 3_600_000), small))?.price).toBe(1.9);
    // Sorted and filtered by the price in force then, not by the one stored first.
    const cheap = await listOfferings(at(c, 3_600_000), slug, { ...mine(c), region: [c.B], maxPrice: 2 });
    expect(cheap.items.map((o) => o.instanceTypeId)).toContain(`${c.SMALL}.4x`);
    const before = await listOfferings(at(c), slug, { ...mine(c), region: [c.B], maxPrice: 2 });
    expect(before.items.map((o) => o.instanceTypeId)).not.toContain(`${c.SMALL}.4x`);
  });

  it("a new offering (type and price) appears; a changed type, model or region shows its new facts", async () => {
    const c = await makeCatalog();
    await getDb()
      .insert(instanceTypes)
      .values({
        id: `${c.SMALL}.2x`,
        gpuModelId: c.SMALL,
        gpuCount: 2,
        vcpus: 16,
        ramGib: 128,
        localDiskGib: 1000,
      });
    const key = `${c.SMALL}.2x@${c.A}`;
    expect(await find(c, at(c), key)).toBeUndefined();
    await getDb()
      .insert(prices)
      .values({
        instanceTypeId: `${c.SMALL}.2x`,
        regionCode: c.A,
        pricingModel: "on_demand",
        usdPerHour: "0.95",
        effectiveFrom: new Date(c.now.getTime() - DAY),
      });
    const added = await find(c, at(c), key);
    expect(added).toMatchObject({ price: 0.95, gpuCount: 2, vcpus: 16, gpuMemoryGib: 24, available: 2 });

    await getDb().execute(sql`update instance_types set vcpus = 20 where id = ${`${c.SMALL}.2x`}`);
    await getDb().execute(sql`update gpu_models set memory_gib = 48, tdp_watts = 400 where id = ${c.SMALL}`);
    await getDb().execute(sql`update regions set pue = 1.5, grid_gco2_per_kwh = 200 where code = ${c.A}`);
    const changed = await find(c, at(c), key, { minMemoryGib: 48 });
    expect(changed).toMatchObject({ vcpus: 20, gpuMemoryGib: 48, tdpWatts: 400 });
    expect(changed?.energyKwh).toBeCloseTo(0.4 * 2 * 1.5, 6);
    expect(changed?.co2eGrams).toBeCloseTo(0.4 * 2 * 1.5 * 200, 3);

    await getDb().execute(sql`update regions set active = false where code = ${c.A}`);
    expect(await find(c, at(c), key)).toBeUndefined();

    // A MIG type whose profile its model does not list is still on sale, with the reference's figures.
    await getDb()
      .insert(instanceTypes)
      .values({
        id: `${c.BIG}.mig-2g.20gb`,
        gpuModelId: c.BIG,
        gpuCount: 1,
        migProfile: "2g.20gb",
        vcpus: 4,
        ramGib: 32,
        localDiskGib: 100,
      });
    await getDb()
      .insert(prices)
      .values({
        instanceTypeId: `${c.BIG}.mig-2g.20gb`,
        regionCode: c.B,
        pricingModel: "on_demand",
        usdPerHour: "0.7",
        effectiveFrom: new Date(c.now.getTime() - DAY),
      });
    const input = { ...mine(c), region: [c.B] };
    const listed = await listOfferings(at(c), slug, input);
    expect(listed.items.map((o) => o.instanceTypeId)).toContain(`${c.BIG}.mig-2g.20gb`);
    expect(listed).toEqual(await listOfferingsReference(at(c), slug, input));
  });

  it("a capacity change shows in the page's availability and in the availability filter and sort", async () => {
    const c = await makeCatalog();
    const key = `${c.SMALL}.4x@${c.A}`;
    expect((await find(c, at(c), key))?.available).toBe(1);
    await allocate(getDb(), c.gpu(c.nodes.smallA.id, 0), 7);
    expect((await find(c, at(c), key))?.available).toBe(0);
    expect((await find(c, at(c), `${c.SMALL}.1x@${c.A}`, { sort: "available_desc" }))?.available).toBe(3);
    expect(await find(c, at(c), key, { available: true })).toBeUndefined();
  });
});

describe("concurrent writers", () => {
  it("two transactions pricing one offering at once both show (the later recount waits for the earlier)", async () => {
    const c = await makeCatalog();
    const row = (pricingModel: "reserved_1m" | "reserved_1y", usd: string) => ({
      instanceTypeId: `${c.BIG}.8x`,
      regionCode: c.A,
      pricingModel,
      usdPerHour: usd,
      effectiveFrom: new Date(c.now.getTime() - DAY),
    });
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inserted = () => {};
    const first = new Promise<void>((r) => {
      inserted = r;
    });
    const t1 = getDb().transaction(async (tx) => {
      await tx.insert(prices).values(row("reserved_1m", "12"));
      inserted();
      await held;
    });
    await first;
    const t2 = getDb().transaction(async (tx) => {
      await tx.insert(prices).values(row("reserved_1y", "10"));
    });
    // T2's trigger waits for T1 (its lock); T1 commits, then T2 recounts with T1's price in view.
    for (let i = 0; i < 200; i++) {
      const { rows } = await getDb().execute<{
        n: number;
      }>(sql`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like 'insert into "prices"%'`);
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    release();
    await Promise.all([t1, t2]);
    expect((await find(c, at(c), `${c.BIG}.8x@${c.A}`))?.prices).toMatchObject({
      reserved_1m: 12,
      reserved_1y: 10,
    });
  });
});

describe("offering_summaries against the prices themselves", () => {
  it("listOfferings equals the reference query after random price writes, at every boundary and between", async () => {
    const c = await makeCatalog();
    const seed = Math.floor(Math.random() * 2 ** 31);
    const rand = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const types = ["1x", "2x", "mig-1g.10gb", "4x"].map((s) =>
      s === "4x" ? `${c.SMALL}.${s}` : `${c.BIG}.${s}`,
    );
    const models = ["on_demand", "spot", "reserved_1m", "reserved_1y"] as const;
    const hour = (h: number) => new Date(c.now.getTime() + h * 3_600_000);
    const hours = new Set<number>([0]);
    for (let step = 0; step < 24; step++) {
      const op = rand();
      const type = pick(types);
      const region = pick([c.A, c.B]);
      if (op < 0.5) {
        // Any period, possibly overlapping others, possibly open, possibly already over or not yet begun.
        const from = Math.floor(rand() * 96) - 48;
        const to = rand() < 0.4 ? null : from + 1 + Math.floor(rand() * 48);
        hours.add(from);
        if (to !== null) hours.add(to);
        await getDb()
          .insert(prices)
          .values({
            instanceTypeId: type,
            regionCode: region,
            pricingModel: pick(models),
            usdPerHour: String(Math.round(rand() * 1000) / 100),
            effectiveFrom: hour(from),
            effectiveTo: to === null ? null : hour(to),
          })
          .onConflictDoNothing();
      } else if (op < 0.7) {
        await getDb().execute(sql`update prices set usd_per_hour = usd_per_hour * 1.5
          where instance_type_id = ${type} and region_code = ${region}`);
      } else if (op < 0.85) {
        const to = Math.floor(rand() * 96) - 48;
        hours.add(to);
        await getDb().execute(sql`update prices set effective_to = ${hour(to)}
          where instance_type_id = ${type} and region_code = ${region} and effective_from < ${hour(to)}
            and pricing_model = ${pick(models)}`);
      } else {
        await getDb().execute(sql`delete from prices where instance_type_id = ${type}
          and region_code = ${region} and pricing_model = ${pick(models)}`);
      }
    }
    const instants = [...hours].flatMap((h) => [hour(h), new Date(hour(h).getTime() - 1)]);
    for (const when of instants) {
      for (const f of [
        {},
        { pricing: pick(models), sort: "price_desc" as const },
        { pricing: pick(models), maxPrice: 5, sort: "per_gpu_asc" as const },
      ]) {
        const input = { ...mine(c), ...f };
        const wctx = clockAt(ctx, when);
        expect(await listOfferings(wctx, slug, input), `seed ${seed}, at ${when.toISOString()}`).toEqual(
          await listOfferingsReference(wctx, slug, input),
        );
      }
    }
  });
});
