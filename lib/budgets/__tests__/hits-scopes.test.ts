import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createBudget } from "@/lib/budgets";
import { budgetHits } from "@/lib/budgets/crossings";
import { getDb } from "@/lib/db/client";
import { meteringCursors, projects, serviceReplicas, usageRecords } from "@/lib/db/schema";
import { monthOf } from "@/lib/metering";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { createService } from "@/lib/services";

/**
 * The budget pass groups the ledger per organization × project without looking at services, and reads a
 * service's replicas' rows apart for its budget. Each scope must still take exactly its rows: a replica's row
 * counted twice in its project (once in the project's group, once as the service's), or missing from the
 * service, changes a figure here.
 */
let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const NOW = "2030-05-10T12:00:00Z";

async function setting() {
  const clock = testClock(NOW);
  const org = await newBillingOrg(clock, "hits-scope");
  const { service } = await createService(org.ctx, org.slug, {
    name: "scoped",
    image: "pytorch-2.5-cuda12.4",
    instanceType: cat.type1x,
    region: cat.region,
    port: 8000,
    minReplicas: 1,
    maxReplicas: 2,
    metric: "concurrency",
    target: 2,
    scaleToZeroGraceSeconds: 600,
  });
  const [other] = await getDb()
    .insert(projects)
    .values({ orgId: org.org.id, slug: "other", name: "Other" })
    .returning();
  if (!other) throw new Error("project insert failed");
  const replica = await scriptedInstance(org, cat, [
    ["2030-05-02T00:00:00Z", "provisioning"],
    ["2030-05-02T00:00:00Z", "running"],
    ["2030-05-02T03:00:00Z", "terminating"],
    ["2030-05-02T03:00:00Z", "terminated"],
  ]);
  await getDb()
    .insert(serviceReplicas)
    .values({
      orgId: org.org.id,
      serviceId: service.id,
      instanceId: replica.id,
      ordinal: 7,
      pricingModel: "on_demand",
      startedAt: new Date("2030-05-02T00:00:00Z"),
      readyAt: new Date("2030-05-02T00:00:00Z"),
      endedAt: new Date("2030-05-02T03:00:00Z"),
      createdAt: new Date("2030-05-02T00:00:00Z"),
    });
  // Metered to now: the figures are the ledger's alone (no unmetered tail).
  await getDb()
    .insert(meteringCursors)
    .values({ orgId: org.org.id, meteredUntil: new Date(NOW), updatedAt: new Date(NOW) });
  const row = (projectId: string | null, instanceId: string | null, start: string, amount: string) => ({
    orgId: org.org.id,
    projectId,
    instanceId,
    kind: instanceId ? ("compute" as const) : ("reservation_commitment" as const),
    regionCode: cat.region,
    periodStart: new Date(start),
    periodEnd: new Date(new Date(start).getTime() + 3_600_000),
    seconds: 3600,
    quantity: "1",
    unit: "instance-hour",
    unitPrice: amount,
    amount,
    createdAt: new Date(NOW),
  });
  await getDb()
    .insert(usageRecords)
    .values([
      // The replica: 3.75 this month, 1.25 of it inside the 7-day trend window (from 2030-05-03T12:00Z).
      row(org.project.id, replica.id, "2030-05-02T00:00:00Z", "1.250000"),
      row(org.project.id, replica.id, "2030-05-02T01:00:00Z", "1.250000"),
      row(org.project.id, replica.id, "2030-05-04T02:00:00Z", "1.250000"),
      // Another instance of the same project, another project, a commitment of the organization.
      row(org.project.id, randomUUID(), "2030-05-03T00:00:00Z", "2.000000"),
      row(other.id, randomUUID(), "2030-05-08T00:00:00Z", "4.000000"),
      row(null, null, "2030-05-09T00:00:00Z", "0.500000"),
      // Last month: outside every figure.
      row(org.project.id, replica.id, "2030-04-30T00:00:00Z", "9.000000"),
    ]);
  const budget = async (name: string, scope: { project?: string; service?: string }) =>
    (
      await createBudget(org.ctx, org.slug, {
        name,
        amountUsd: 100,
        thresholds: [{ kind: "actual", pct: 1 }],
        ...scope,
      })
    ).id;
  return {
    org,
    ids: {
      org: await budget("Org", {}),
      project: await budget("Project", { project: org.project.id }),
      other: await budget("Other", { project: other.id }),
      service: await budget("Service", { service: service.id }),
    },
  };
}

describe("budgetHits' scopes", () => {
  it("gives the organization, each project and the service exactly their ledger rows", async () => {
    const { org, ids } = await setting();
    const now = new Date(NOW);
    const month = monthOf(now);
    for (const q of [{ orgIds: [org.org.id] }, {}]) {
      const { hits } = await budgetHits(getDb(), { ...q, month, now });
      const of = (id: string) => hits.find((h) => h.budgetId === id);
      const want: Array<[string, number, number]> = [
        [ids.org, 10.25, 5.75],
        [ids.project, 5.75, 1.25],
        [ids.other, 4, 4],
        [ids.service, 3.75, 1.25],
      ];
      for (const [id, mtd, trend] of want) {
        const h = of(id);
        expect(h?.spend.ledgerMtd, `${JSON.stringify(q)} ${id}`).toBeCloseTo(mtd, 6);
        expect(h?.crossed).toEqual([{ kind: "actual", pct: 1 }]);
        // Per hour over the trend window's 168 h (the organization's first row this month precedes it).
        expect((h?.spend.trendUsd ?? 0) * 168).toBeCloseTo(trend, 6);
      }
    }
  });
});
