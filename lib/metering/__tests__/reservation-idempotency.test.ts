import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { reservations } from "@/lib/db/schema";
import { purchaseReservation } from "@/lib/metering";
import { type BillingCatalog, billingCatalog, newBillingOrg, testClock } from "./fixtures";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const count = (orgId: string) => getDb().$count(reservations, eq(reservations.orgId, orgId));

// Issue 12 item 15: a retried purchase bought a second one-year commitment.
describe("buying a reservation with an idempotency key", () => {
  it("buys once for the same key, even when the retries race", async () => {
    const org = await newBillingOrg(testClock("2030-03-11T10:30:00Z"), "resv-idem");
    const input = {
      gpuModelId: cat.gpu,
      regionCode: cat.region,
      gpuCount: 2,
      term: "reserved_1m" as const,
      idempotencyKey: "buy-2-h100-march",
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => purchaseReservation(org.ctx, org.slug, input)),
    );
    expect(await count(org.org.id)).toBe(1);
    expect(new Set(results.map((r) => r.reservation.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(results.every((r) => r.quote.totalUsd === results[0]?.quote.totalUsd)).toBe(true);

    const other = await purchaseReservation(org.ctx, org.slug, { ...input, gpuCount: 3 }).catch(
      (e: unknown) => e,
    );
    expect(other).toBeInstanceOf(ConflictError);
    await purchaseReservation(org.ctx, org.slug, { ...input, idempotencyKey: "another" });
    expect(await count(org.org.id)).toBe(2);
  });

  it("keys are per organization", async () => {
    const a = await newBillingOrg(testClock("2030-03-11T10:30:00Z"), "resv-a");
    const b = await newBillingOrg(testClock("2030-03-11T10:30:00Z"), "resv-b");
    const input = {
      gpuModelId: cat.gpu,
      regionCode: cat.region,
      gpuCount: 1,
      term: "reserved_1m" as const,
      idempotencyKey: "k",
    };
    await purchaseReservation(a.ctx, a.slug, input);
    const r = await purchaseReservation(b.ctx, b.slug, input);
    expect(r.replayed).toBe(false);
    expect(r.reservation.orgId).toBe(b.org.id);
  });
});
