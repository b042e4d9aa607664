import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cancelPriceChange, listOfferings, listPrices, priceAt, schedulePriceChange } from "@/lib/catalog";
import { ConflictError, ForbiddenError, InvalidStateError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { PriceBook } from "@/lib/metering/price-book";
import { currentPrice } from "@/lib/provisioning/offerings";
import { makeUser } from "../../admin/__tests__/fixtures";
import { newFleet, newOrg, testClock } from "../../provisioning/__tests__/fixtures";

const HOUR = 3_600_000;

async function setup() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 1 }]);
  const op = { ...(await makeUser(getDb(), { isOperator: true, label: "priceop" })).ctx, now: clock.now };
  const key = { instanceTypeId: "h100.1x", regionCode: fleet.region, pricingModel: "on_demand" as const };
  const rows = async () =>
    (
      await getDb().execute<{ usd: string; from: Date; to: Date | null }>(sql`
        select usd_per_hour as usd, effective_from as "from", effective_to as "to" from prices
        where instance_type_id = 'h100.1x' and region_code = ${fleet.region} and pricing_model = 'on_demand'
        order by effective_from`)
    ).rows.map((r) => ({ usd: Number(r.usd), from: new Date(r.from), to: r.to ? new Date(r.to) : null }));
  const audits = async () =>
    (
      await getDb().execute<{ action: string }>(sql`
        select action from audit_log where target_type = 'price' and actor_user_id = ${
          op.actor.kind === "user" ? op.actor.userId : ""
        } order by at, action`)
    ).rows.map((r) => r.action);
  return { clock, fleet, op, key, rows, audits };
}

describe("scheduled price changes", () => {
  it("apply from their instant on, in the catalog, at launch and in metering, never earlier", async () => {
    const { clock, fleet, op, key, rows, audits } = await setup();
    const at = new Date(clock.now().getTime() + 24 * HOUR);
    const change = await schedulePriceChange(op, {
      ...key,
      usdPerHour: "3.10",
      effectiveFrom: at.toISOString(),
    });
    expect(change).toMatchObject({ usdPerHour: 3.1, effectiveFrom: at, effectiveTo: null });
    // The old row is cut at the change, not before: the chain has no overlap and no gap.
    expect(await rows()).toEqual([
      { usd: 2.5, from: new Date("2020-01-01T00:00:00Z"), to: at },
      { usd: 3.1, from: at, to: null },
    ]);
    const before = new Date(at.getTime() - 1);
    expect((await priceAt(key.instanceTypeId, fleet.region, "on_demand", before))?.usdPerHour).toBe(2.5);
    expect((await priceAt(key.instanceTypeId, fleet.region, "on_demand", at))?.usdPerHour).toBe(3.1);
    expect(await currentPrice(getDb(), key.instanceTypeId, fleet.region, "on_demand", before)).toBe("2.5000");
    expect(await currentPrice(getDb(), key.instanceTypeId, fleet.region, "on_demand", at)).toBe("3.1000");
    const book = await PriceBook.load(getDb(), [{ typeId: key.instanceTypeId, region: fleet.region }]);
    expect(book.at(key.instanceTypeId, fleet.region, "on_demand", before.getTime())).toBe(2.5);
    expect(book.at(key.instanceTypeId, fleet.region, "on_demand", at.getTime())).toBe(3.1);
    expect(book.changePoints(key.instanceTypeId, fleet.region)).toContain(at.getTime());
    const o = await newOrg("pricecat", clock);
    const offered = async (now: Date) =>
      (await listOfferings({ ...o.ctx, now: () => now }, o.slug, { region: [fleet.region] })).items.find(
        (x) => x.instanceTypeId === key.instanceTypeId,
      )?.prices.on_demand;
    expect(await offered(before)).toBe(2.5);
    expect(await offered(at)).toBe(3.1);
    expect(await audits()).toEqual(["price.scheduled"]);
  });

  it("slots a change between the price in force and a later one, and cancelling restores the chain", async () => {
    const { clock, op, key, rows, audits } = await setup();
    const t = (h: number) => new Date(clock.now().getTime() + h * HOUR);
    const late = await schedulePriceChange(op, { ...key, usdPerHour: 4, effectiveFrom: t(48) });
    const mid = await schedulePriceChange(op, { ...key, usdPerHour: 3, effectiveFrom: t(24) });
    expect((await rows()).map((r) => [r.usd, r.to])).toEqual([
      [2.5, t(24)],
      [3, t(48)],
      [4, null],
    ]);
    const listed = (await listPrices(op, { region: key.regionCode })).find(
      (r) => r.instanceTypeId === key.instanceTypeId && r.pricingModel === "on_demand",
    );
    expect(listed?.current?.usdPerHour).toBe(2.5);
    expect(listed?.scheduled.map((s) => [s.id, s.usdPerHour])).toEqual([
      [mid.id, 3],
      [late.id, 4],
    ]);
    // h100's market median is 4.29 per GPU-hour (the seeded snapshot): 2.5 is 42 % below it.
    expect(listed?.marketMedianPerGpu).toBeCloseTo(4.29);
    expect(listed?.vsMarket).toBeCloseTo(2.5 / 4.29 - 1);
    // …and the market's range for it: 10th and 90th percentile of the same offers.
    expect(listed?.marketP10PerGpu).toBeCloseTo(2.1791, 4);
    expect(listed?.marketP90PerGpu).toBeCloseTo(11.5159, 4);

    await cancelPriceChange(op, mid.id);
    expect((await rows()).map((r) => [r.usd, r.to])).toEqual([
      [2.5, t(48)],
      [4, null],
    ]);
    await cancelPriceChange(op, late.id);
    expect((await rows()).map((r) => [r.usd, r.to])).toEqual([[2.5, null]]);
    // One clock instant for all four: ordered by (at, action).
    expect(await audits()).toEqual([
      "price.cancelled",
      "price.cancelled",
      "price.scheduled",
      "price.scheduled",
    ]);
  });

  it("refuses a past or present time, a bad price, an unknown type or region and a taken time, writing nothing", async () => {
    const { clock, fleet, op, key, rows, audits } = await setup();
    const future = new Date(clock.now().getTime() + HOUR).toISOString();
    const refused = async (over: Record<string, unknown>, field: string) => {
      const err = await schedulePriceChange(op, {
        ...key,
        usdPerHour: 3,
        effectiveFrom: future,
        ...over,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fieldErrors)).toEqual([field]);
    };
    await refused({ usdPerHour: "-1" }, "usdPerHour");
    await refused({ usdPerHour: "0" }, "usdPerHour");
    await refused({ usdPerHour: "abc" }, "usdPerHour");
    await refused({ effectiveFrom: clock.now().toISOString() }, "effectiveFrom");
    await refused({ effectiveFrom: "2029-12-31T00:00" }, "effectiveFrom");
    await refused({ effectiveFrom: "soon" }, "effectiveFrom");
    await refused({ instanceTypeId: "h999.1x" }, "instanceTypeId");
    await refused({ regionCode: "nowhere-9" }, "regionCode");
    await refused({ pricingModel: "free" }, "pricingModel");
    const o = await newOrg("notprice", clock);
    await expect(
      schedulePriceChange(o.ctx, { ...key, usdPerHour: 3, effectiveFrom: future }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await rows()).toHaveLength(1);
    expect(await audits()).toEqual([]);

    const first = await schedulePriceChange(op, { ...key, usdPerHour: 3, effectiveFrom: future });
    await expect(
      schedulePriceChange(op, { ...key, usdPerHour: 5, effectiveFrom: future }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await rows()).map((r) => r.usd)).toEqual([2.5, 3]);
    await expect(cancelPriceChange(o.ctx, first.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(fleet.region).toBe(key.regionCode);
  });

  it("a datetime-local value without a zone is read as UTC", async () => {
    const { op, key, rows } = await setup();
    await schedulePriceChange(op, { ...key, usdPerHour: 3, effectiveFrom: "2030-02-01T00:00" });
    expect((await rows()).at(-1)?.from).toEqual(new Date("2030-02-01T00:00:00Z"));
  });

  it("cannot cancel a price already in force or an unknown one", async () => {
    const { clock, op, key, rows, audits } = await setup();
    const change = await schedulePriceChange(op, {
      ...key,
      usdPerHour: 3,
      effectiveFrom: new Date(clock.now().getTime() + HOUR),
    });
    clock.advance(HOUR);
    await expect(cancelPriceChange(op, change.id)).rejects.toBeInstanceOf(InvalidStateError);
    await expect(cancelPriceChange(op, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(cancelPriceChange(op, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
    expect((await rows()).map((r) => r.usd)).toEqual([2.5, 3]);
    expect(await audits()).toEqual(["price.scheduled"]);
  });
});
