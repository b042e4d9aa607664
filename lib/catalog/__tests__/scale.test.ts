import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listOfferings } from "@/lib/catalog";
import { insertSynthetic, syntheticPlan } from "@/lib/catalog/synthetic";
import { getDb, type Tx } from "@/lib/db/client";
import { newTenant } from "@/test/factories";

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

describe("catalog at scale (2,000+ offerings, rolled back)", () => {
  it("filters, counts and pages correctly", async () => {
    const tenant = await newTenant("scale");
    // 12 regions × 6 models × 30 types = 2,160 offerings; one 8-GPU node per region and model.
    const p = syntheticPlan({ regions: 12, models: 6, typesPerModel: 30, nodesPerRegionModel: 1 });
    expect(p.offerings.length).toBeGreaterThanOrEqual(2000);
    await inRolledBackTx(async (tx) => {
      await insertSynthetic(tx, p, new Date(Date.now() - 86_400_000));
      // The catalog's availability follows capacity at commit (drizzle 0031); this transaction never commits,
      // so it runs the pending recount now, as its commit would.
      await tx.execute(sql`set constraints node_capacity_offering_availability_commit immediate`);
      const ctx = { ...tenant.ctx, tx };
      const gpu = p.models.map((m) => m.id);

      const all = await listOfferings(ctx, tenant.org.slug, { gpu, pageSize: 100 });
      expect(all.total).toBe(p.offerings.length);
      expect(all.pageCount).toBe(Math.ceil(p.offerings.length / 100));

      const f = { gpu, jurisdiction: ["EU"], minMemoryGib: 48, gpuCount: "4" as const, maxPrice: 10 };
      const memory = (id: string) => p.models.find((m) => m.id === id)?.memoryGib ?? 0;
      const expected = p.offerings.filter(
        (o) => o.r.jurisdiction === "EU" && memory(o.t.gpuModelId) >= 48 && o.t.gpuCount === 4 && o.usd <= 10,
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
          // One free 8-GPU node per region and model: two 4-GPU instances fit.
          expect(o.available).toBe(2);
          seen.push(`${o.instanceTypeId}@${o.regionCode}`);
        }
        if (page >= res.pageCount) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(expected.map((o) => `${o.t.id}@${o.r.code}`).sort());
    });
  });
});
