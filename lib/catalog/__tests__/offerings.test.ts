import { beforeAll, describe, expect, it } from "vitest";
import { getOffering, listOfferings, type Offering } from "@/lib/catalog";
import { type Ctx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newTenant } from "@/test/factories";
import { allocate, clockAt, makeCatalog, restrictOrg, type TestCatalog } from "./fixture";

let c: TestCatalog;
let ctx: Ctx;
let slug: string;
let orgId: string;

beforeAll(async () => {
  c = await makeCatalog();
  const tenant = await newTenant("cat");
  ctx = clockAt(tenant.ctx, c.now);
  slug = tenant.org.slug;
  orgId = tenant.org.id;
});

const keys = (items: Offering[]) => items.map((o) => `${o.instanceTypeId}@${o.regionCode}`).sort();
const mine = () => ({ gpu: [c.BIG, c.SMALL], pageSize: 100 });

describe("listOfferings filters", () => {
  it("lists every instance type × region with a current price", async () => {
    const page = await listOfferings(ctx, slug, mine());
    expect(page.total).toBe(14);
    expect(page.items).toHaveLength(14);
  });

  it("narrows by region, jurisdiction and GPU model", async () => {
    const byRegion = await listOfferings(ctx, slug, { ...mine(), region: [c.B] });
    expect(byRegion.total).toBe(7);
    expect(byRegion.items.every((o) => o.regionCode === c.B)).toBe(true);
    const byJurisdiction = await listOfferings(ctx, slug, { ...mine(), jurisdiction: ["EU"] });
    expect(byJurisdiction.items.every((o) => o.regionCode === c.A && o.jurisdiction === "EU")).toBe(true);
    expect(byJurisdiction.total).toBe(7);
    const byModel = await listOfferings(ctx, slug, { gpu: [c.SMALL], pageSize: 100 });
    expect(keys(byModel.items)).toEqual(
      [`${c.SMALL}.1x@${c.A}`, `${c.SMALL}.1x@${c.B}`, `${c.SMALL}.4x@${c.A}`, `${c.SMALL}.4x@${c.B}`].sort(),
    );
  });

  it("narrows by memory per device (a MIG slice has its profile's memory)", async () => {
    const page = await listOfferings(ctx, slug, { ...mine(), region: [c.A], minMemoryGib: 40 });
    expect(keys(page.items)).toEqual(
      [`${c.BIG}.1x`, `${c.BIG}.2x`, `${c.BIG}.8x`, `${c.BIG}.mig-3g.40gb`].map((k) => `${k}@${c.A}`).sort(),
    );
  });

  it("narrows by GPU count, or to MIG slices", async () => {
    const two = await listOfferings(ctx, slug, { ...mine(), gpuCount: "1" });
    expect(keys(two.items)).toEqual(
      [`${c.BIG}.1x@${c.A}`, `${c.BIG}.1x@${c.B}`, `${c.SMALL}.1x@${c.A}`, `${c.SMALL}.1x@${c.B}`].sort(),
    );
    const mig = await listOfferings(ctx, slug, { ...mine(), gpuCount: "mig" });
    expect(mig.total).toBe(4);
    expect(mig.items.every((o) => o.migProfile !== null)).toBe(true);
  });

  it("narrows by pricing model and by max price for that model", async () => {
    const spot = await listOfferings(ctx, slug, { ...mine(), pricing: "spot" });
    expect(spot.total).toBe(10);
    expect(spot.items.every((o) => o.gpuModelId === c.BIG && o.price === o.prices.spot)).toBe(true);
    const cheap = await listOfferings(ctx, slug, { ...mine(), pricing: "spot", maxPrice: 1 });
    expect(cheap.items.map((o) => o.price).every((p) => p <= 1)).toBe(true);
    expect(keys(cheap.items)).toEqual(
      [`${c.BIG}.1x@${c.A}`]
        .concat(
          [`${c.BIG}.mig-1g.10gb`, `${c.BIG}.mig-3g.40gb`].flatMap((k) => [`${k}@${c.A}`, `${k}@${c.B}`]),
        )
        .sort(),
    );
    const onDemandCheap = await listOfferings(ctx, slug, { ...mine(), maxPrice: 1 });
    expect(onDemandCheap.items.every((o) => (o.prices.on_demand ?? 99) <= 1)).toBe(true);
    expect(onDemandCheap.total).toBe(6);
  });
});

describe("listOfferings sorting and pagination", () => {
  it("sorts by price, price per GPU and price per TFLOP in both directions", async () => {
    const asc = await listOfferings(ctx, slug, { ...mine(), sort: "price_asc" });
    const prices = asc.items.map((o) => o.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const desc = await listOfferings(ctx, slug, { ...mine(), sort: "price_desc" });
    expect(desc.items[0]?.instanceTypeId).toBe(`${c.BIG}.8x`);
    const perGpu = await listOfferings(ctx, slug, { ...mine(), sort: "per_gpu_asc" });
    const pg = perGpu.items.map((o) => o.pricePerGpu);
    expect(pg).toEqual([...pg].sort((a, b) => a - b));
    expect(perGpu.items[0]?.gpuModelId).toBe(c.SMALL);
    const perTflop = await listOfferings(ctx, slug, { ...mine(), sort: "per_tflop_desc" });
    const pt = perTflop.items.map((o) => o.pricePerTflop);
    // Models without a TFLOPS figure sort last in either direction.
    expect(pt.slice(-4)).toEqual([null, null, null, null]);
    const known = pt.slice(0, -4) as number[];
    expect(known).toEqual([...known].sort((a, b) => b - a));
  });

  it("pages with a stable order and a total that does not depend on the page", async () => {
    const all = await listOfferings(ctx, slug, { ...mine(), sort: "price_asc" });
    const seen: string[] = [];
    for (let page = 1; page <= 2; page++) {
      const p = await listOfferings(ctx, slug, { ...mine(), sort: "price_asc", pageSize: 10, page });
      expect(p.total).toBe(14);
      expect(p.pageCount).toBe(2);
      seen.push(...p.items.map((o) => `${o.instanceTypeId}@${o.regionCode}`));
    }
    expect(seen).toEqual(all.items.map((o) => `${o.instanceTypeId}@${o.regionCode}`));
    const past = await listOfferings(ctx, slug, { ...mine(), pageSize: 10, page: 5 });
    expect(past.items).toEqual([]);
    expect(past.total).toBe(14);
  });
});

describe("getOffering", () => {
  it("returns one offering and refuses one not on sale", async () => {
    const o = await getOffering(ctx, slug, { instanceTypeId: `${c.BIG}.2x`, regionCode: c.B });
    expect(o.prices).toEqual({ on_demand: 4.4, spot: 2.2, reserved_1m: null, reserved_1y: null });
    await expect(
      getOffering(ctx, slug, { instanceTypeId: `${c.SMALL}.1x`, regionCode: c.B, pricing: "spot" }),
    ).rejects.toThrow(/not found/);
  });
});

describe("data residency and tenancy", () => {
  it("marks offerings outside the organization's jurisdictions as not allowed, with the reason", async () => {
    const t = await newTenant("eu");
    await restrictOrg(getDb(), t.org.id, ["EU"]);
    const page = await listOfferings(clockAt(t.ctx, c.now), t.org.slug, mine());
    const us = page.items.filter((o) => o.regionCode === c.B);
    const eu = page.items.filter((o) => o.regionCode === c.A);
    expect(us.length).toBe(7);
    expect(us.every((o) => !o.allowed && o.disallowedReason?.code === "outside_data_residency")).toBe(true);
    expect(us[0]?.disallowedReason?.message).toBe("Outside your organization's data residency (EU only)");
    expect(eu.every((o) => o.allowed && o.disallowedReason === null)).toBe(true);
    expect(page.allowedJurisdictions).toEqual(["EU"]);
  });

  it("rejects invalid filters from a programmatic caller with field errors, not a crash", async () => {
    const err = await listOfferings(ctx, slug, { pageSize: 7, maxPrice: -1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors).sort()).toEqual(["maxPrice", "pageSize"]);
  });

  it("refuses a member's token of another organization (the access check is folded into the page statement)", async () => {
    const other = await newTenant("tok");
    if (ctx.actor.kind !== "user") throw new Error("user actor");
    const token = { ...ctx, actor: { ...ctx.actor, tokenOrgId: other.org.id } };
    await expect(listOfferings(token, slug, mine())).rejects.toThrow(/Organization not found/);
    const own = { ...ctx, actor: { ...ctx.actor, tokenOrgId: orgId } };
    expect((await listOfferings(own, slug, mine())).total).toBe(14);
  });

  it("refuses a user who is not a member of the organization", async () => {
    const stranger = await newTenant("x");
    await expect(listOfferings(stranger.ctx, slug, mine())).rejects.toThrow(/Organization not found/);
  });
});

describe("availability", () => {
  it("counts free GPUs of active nodes minus active allocations, whole and MIG", async () => {
    const k = await makeCatalog();
    const kctx = clockAt(ctx, k.now);
    const avail = async () => {
      const p = await listOfferings(kctx, slug, { region: [k.A, k.B], pageSize: 100 });
      return Object.fromEntries(
        p.items.map((o) => [`${o.instanceTypeId.slice(9)}@${o.regionCode.slice(9)}`, o.available]),
      );
    };
    // The draining node's 8 GPUs never count; the MIG GPUs of node 1 are not whole GPUs.
    expect(await avail()).toMatchObject({
      "big.1x@eu-a": 6,
      "big.2x@eu-a": 3,
      "big.8x@eu-a": 0,
      "big.mig-1g.10gb@eu-a": 14,
      "big.mig-3g.40gb@eu-a": 4,
      "big.8x@us-b": 1,
      "big.mig-1g.10gb@us-b": 0,
      "small.4x@eu-a": 1,
      "small.1x@us-b": 0,
    });
    const db = getDb();
    await allocate(db, k.gpu(k.nodes.bigA1.id, 0), 7);
    await allocate(db, k.gpu(k.nodes.bigA1.id, 1), 7);
    await allocate(db, k.gpu(k.nodes.bigA1.id, 2), 7, { released: true });
    await allocate(db, k.gpu(k.nodes.bigA1.id, 6), 3, { migProfile: "3g.40gb" });
    await allocate(db, k.gpu(k.nodes.bigA2.id, 0), 7);
    await allocate(db, k.gpu(k.nodes.smallA.id, 3), 7);
    expect(await avail()).toMatchObject({
      "big.1x@eu-a": 4,
      "big.2x@eu-a": 2,
      "big.mig-1g.10gb@eu-a": 11,
      "big.mig-3g.40gb@eu-a": 3,
      "small.1x@eu-a": 3,
      "small.4x@eu-a": 0,
    });
    const onlyAvailable = await listOfferings(kctx, slug, { region: [k.A], available: true, pageSize: 100 });
    expect(onlyAvailable.items.every((o) => o.available > 0)).toBe(true);
    expect(keys(onlyAvailable.items)).not.toContain(`${k.BIG}.8x@${k.A}`);
    expect(keys(onlyAvailable.items)).not.toContain(`${k.SMALL}.4x@${k.A}`);
    expect(onlyAvailable.total).toBe(5);
  });
});
