import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listOfferings } from "@/lib/catalog";
import { getDb, type Tx } from "@/lib/db/client";
import { gpuModels, instanceTypes, prices, regions } from "@/lib/db/schema";
import { newTenant } from "@/test/factories";

const JURISDICTIONS = ["EU", "US", "UK", "APAC"];
const COUNTS = [1, 2, 4, 8];
class Rollback extends Error {}

/** Everything inserted for the test disappears with the transaction; real failures still surface. */
async function inRolledBackTx(fn: (tx: Tx) => Promise<void>) {
  try {
    await getDb().transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
}

/** 12 regions × 6 models × 30 types = 2,160 synthetic offerings; expected figures come from the same plan. */
function plan(id: string) {
  const regionRows = Array.from({ length: 12 }, (_, r) => ({
    code: `${id}-r${String(r).padStart(2, "0")}`,
    name: `Synthetic ${r}`,
    city: "Nowhere",
    country: "ZZ",
    jurisdiction: JURISDICTIONS[r % 4] as string,
    pue: 1.2,
    gridGco2PerKwh: 200,
  }));
  const models = Array.from({ length: 6 }, (_, m) => ({
    id: `${id}-m${m}`,
    name: `Model ${m}`,
    vendor: "NVIDIA",
    memoryGib: 16 * (m + 1),
    bf16Tflops: m === 5 ? null : 100 * (m + 1),
  }));
  const types = models.flatMap((m, mi) =>
    Array.from({ length: 30 }, (_, j) => ({
      id: `${m.id}.t${j}`,
      gpuModelId: m.id,
      gpuCount: COUNTS[j % 4] as number,
      vcpus: 8,
      ramGib: 64,
      localDiskGib: 100,
      perGpu: 0.5 * (mi + 1) + j / 100,
    })),
  );
  const offerings = regionRows.flatMap((r, ri) =>
    types.map((t) => ({ t, r, usd: Math.round(t.perGpu * t.gpuCount * (1 + ri / 100) * 10000) / 10000 })),
  );
  return { regionRows, models, types, offerings };
}

describe("catalog at scale (2,000+ offerings, rolled back)", () => {
  it("filters, counts and pages correctly", async () => {
    const tenant = await newTenant("scale");
    const id = `s${randomUUID().slice(0, 6)}`;
    const p = plan(id);
    expect(p.offerings.length).toBeGreaterThanOrEqual(2000);
    const from = new Date(Date.now() - 86_400_000);
    await inRolledBackTx(async (tx) => {
      await tx.insert(regions).values(p.regionRows);
      await tx.insert(gpuModels).values(p.models);
      await tx.insert(instanceTypes).values(p.types.map(({ perGpu: _p, ...t }) => t));
      await tx.insert(prices).values(
        p.offerings.map((o) => ({
          instanceTypeId: o.t.id,
          regionCode: o.r.code,
          pricingModel: "on_demand" as const,
          usdPerHour: o.usd.toFixed(4),
          effectiveFrom: from,
        })),
      );
      const ctx = { ...tenant.ctx, tx };
      const gpu = p.models.map((m) => m.id);

      const all = await listOfferings(ctx, tenant.org.slug, { gpu, pageSize: 100 });
      expect(all.total).toBe(p.offerings.length);
      expect(all.pageCount).toBe(Math.ceil(p.offerings.length / 100));

      const f = { gpu, jurisdiction: ["EU"], minMemoryGib: 48, gpuCount: "4" as const, maxPrice: 10 };
      const expected = p.offerings.filter(
        (o) =>
          o.r.jurisdiction === "EU" &&
          (p.models.find((m) => m.id === o.t.gpuModelId)?.memoryGib ?? 0) >= 48 &&
          o.t.gpuCount === 4 &&
          o.usd <= 10,
      );
      expect(expected.length).toBeGreaterThan(40);
      const seen: string[] = [];
      let last = -Infinity;
      for (let page = 1; ; page++) {
        const res = await listOfferings(ctx, tenant.org.slug, {
          ...f,
          pageSize: 20,
          page,
          sort: "price_asc",
        });
        expect(res.total).toBe(expected.length);
        for (const o of res.items) {
          expect(o.price).toBeGreaterThanOrEqual(last);
          last = o.price;
          seen.push(`${o.instanceTypeId}@${o.regionCode}`);
        }
        if (page >= res.pageCount) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(expected.map((o) => `${o.t.id}@${o.r.code}`).sort());
    });
  });
});
