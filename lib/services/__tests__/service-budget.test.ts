import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createBudget, evaluateBudgets, listBudgets } from "@/lib/budgets";
import { systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { budgetAlerts, projects, serviceEvents, serviceReplicas } from "@/lib/db/schema";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { launch, policyStop } from "@/lib/provisioning";
import { autoscaleServices, createService } from "@/lib/services";

/**
 * A budget scoped to one service counts that service's replicas' spend only, alerts exactly once like any
 * budget, and at 100 % with block_launches refuses that service's new replicas — and nothing else.
 */
let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const spec = (name: string) => ({
  name,
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

/** $2.50/h from 00:00 to 04:00 on a replica of `capped` ($10), and $2.50/h since 00:00 on a plain instance. */
async function setting() {
  const clock = testClock("2030-05-01T05:00:00Z");
  const org = await newBillingOrg(clock, "svc-bud");
  const { service: capped } = await createService(org.ctx, org.slug, spec("capped"));
  const { service: free } = await createService(org.ctx, org.slug, spec("free"));
  const replica = await scriptedInstance(org, cat, [
    ["2030-05-01T00:00:00Z", "provisioning"],
    ["2030-05-01T00:00:00Z", "running"],
    ["2030-05-01T04:00:00Z", "terminating"],
    ["2030-05-01T04:00:00Z", "terminated"],
  ]);
  await getDb()
    .insert(serviceReplicas)
    .values({
      orgId: org.org.id,
      serviceId: capped.id,
      instanceId: replica.id,
      ordinal: 9,
      pricingModel: "on_demand",
      startedAt: new Date("2030-05-01T00:00:00Z"),
      readyAt: new Date("2030-05-01T00:00:00Z"),
      endedAt: new Date("2030-05-01T04:00:00Z"),
      createdAt: new Date("2030-05-01T00:00:00Z"),
    });
  await scriptedInstance(org, cat, [
    ["2030-05-01T00:00:00Z", "provisioning"],
    ["2030-05-01T00:00:00Z", "running"],
  ]);
  return { clock, org, capped, free };
}

describe("a budget scoped to one service", () => {
  it("names a live service of the organization (by name or id) and takes its project; field errors otherwise", async () => {
    const { org, capped } = await setting();
    const other = await newBillingOrg(testClock("2030-05-01T05:00:00Z"), "svc-bud-x");
    const b = await createBudget(org.ctx, org.slug, { name: "By name", amountUsd: 50, service: "capped" });
    expect(b).toMatchObject({ serviceId: capped.id, projectId: capped.projectId });
    const fieldOf = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => (e instanceof ValidationError ? e.fieldErrors : e),
      );
    expect(
      await fieldOf(createBudget(other.ctx, other.slug, { name: "X", amountUsd: 5, service: capped.id })),
    ).toEqual({ service: ["This service does not exist in the organization"] });
    const [p] = await getDb()
      .insert(projects)
      .values({ orgId: org.org.id, slug: "other", name: "Other" })
      .returning();
    expect(
      await fieldOf(
        createBudget(org.ctx, org.slug, { name: "Y", amountUsd: 5, service: "capped", project: p?.id }),
      ),
    ).toEqual({
      service: ["This service belongs to another project: leave the project empty or choose its own"],
    });
  });

  it("counts only the service's replicas, alerts once per threshold, and blocks only that service's new replicas", async () => {
    const { clock, org, capped, free } = await setting();
    await createBudget(org.ctx, org.slug, {
      name: "Capped svc",
      amountUsd: 8,
      service: capped.id,
      actionAt100: "block_launches",
      thresholds: [{ kind: "actual", pct: 50 }],
    });
    const [row] = (await listBudgets(org.ctx, org.slug)).filter((x) => x.name === "Capped svc");
    expect(row?.forecast.actualUsd).toBeCloseTo(10, 6);
    expect(row).toMatchObject({ serviceName: "capped", status: "exceeded", blocksLaunches: true });

    const stop = policyStop;
    const first = await evaluateBudgets(systemCtx("budgets"), {
      now: clock.now(),
      orgIds: [org.org.id],
      stop,
    });
    expect(first.alerts).toBe(2); // 50 % and the 100 % that block_launches watches
    await evaluateBudgets(systemCtx("budgets"), { now: clock.now(), orgIds: [org.org.id], stop });
    expect(await getDb().$count(budgetAlerts, eq(budgetAlerts.orgId, org.org.id))).toBe(2);

    const ctx = systemCtx("autoscaler", { now: clock.now });
    expect((await autoscaleServices(ctx, { serviceId: capped.id })).launched).toBe(0);
    const refused = await getDb()
      .select({ text: serviceEvents.text })
      .from(serviceEvents)
      .where(eq(serviceEvents.serviceId, capped.id));
    expect(refused.map((e) => e.text)).toContainEqual(
      expect.stringMatching(
        /^Replica 10 refused: The budget 'Capped svc' is used up for 2030-05 \(\$10\.00 of \$8\.00\): new replicas of this service are blocked/,
      ),
    );
    // The other service and a plain launch in the same project are not this budget's.
    expect((await autoscaleServices(ctx, { serviceId: free.id })).launched).toBe(1);
    await expect(
      launch(org.ctx, org.slug, {
        kind: "container",
        name: "plain",
        project: "default",
        region: cat.region,
        instanceType: cat.type1x,
        image: "pytorch-2.5-cuda12.4",
      }),
    ).resolves.toBeTruthy();
  });
});
