import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createBudget } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instances, serviceEvents, serviceReplicas } from "@/lib/db/schema";
import {
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { placeQueuedInstances, preemptInstance, reconcileInstances } from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { autoscaleServices, createService } from "@/lib/services";
import { waitFor } from "./harness";

/**
 * Replica admission without traffic: a minimum of replicas is what the autoscaler must hold, so one pass at a
 * time shows what it launched, what it was refused and why, and what replaced a reclaimed spot replica.
 */
const spec = (region: string, instanceType: string, over: Record<string, unknown> = {}) => ({
  name: `m-${Math.random().toString(36).slice(2, 8)}`,
  image: "pytorch-2.5-cuda12.4",
  instanceType,
  region,
  port: 8000,
  minReplicas: 1,
  maxReplicas: 2,
  metric: "concurrency",
  target: 2,
  scaleToZeroGraceSeconds: 600,
  ...over,
});

async function replicas(serviceId: string) {
  const r = await getDb().execute<{ ordinal: number; pricing: string; state: string; ended: boolean }>(sql`
    select r.ordinal, r.pricing_model::text as pricing, i.state::text as state, r.ended_at is not null as ended
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${serviceId} order by r.ordinal`);
  return r.rows;
}
const events = async (serviceId: string) =>
  getDb()
    .select({ code: serviceEvents.code, text: serviceEvents.text })
    .from(serviceEvents)
    .where(eq(serviceEvents.serviceId, serviceId))
    .orderBy(serviceEvents.id);

describe("services: a budget block caps the replicas, with the reason on the service", () => {
  it("refuses the replica through launch's budget check, launches nothing, and says which budget", async () => {
    const cat = await billingCatalog();
    // $2.50/h since midnight: $12.50 spent at 05:00, over a $5 budget that blocks launches.
    const clock = testClock("2030-05-01T05:00:00Z");
    const org = await newBillingOrg(clock, "svc-budget");
    await scriptedInstance(org, cat, [
      ["2030-05-01T00:00:00Z", "provisioning"],
      ["2030-05-01T00:00:00Z", "running"],
    ]);
    await createBudget(org.ctx, org.slug, { name: "Cap", amountUsd: 5, actionAt100: "block_launches" });
    const { service } = await createService(org.ctx, org.slug, spec(cat.region, cat.type1x));
    const before = await getDb().$count(instances, eq(instances.orgId, org.org.id));

    const pass = await autoscaleServices(systemCtx("autoscaler", { now: clock.now }), {
      serviceId: service.id,
    });
    expect(pass.launched).toBe(0);
    expect(await getDb().$count(serviceReplicas, eq(serviceReplicas.serviceId, service.id))).toBe(0);
    expect(await getDb().$count(instances, eq(instances.orgId, org.org.id))).toBe(before);
    const refused = (await events(service.id)).filter((e) => e.code === "replica_refused");
    expect(refused).toHaveLength(1);
    expect(refused[0]?.text).toMatch(/^Replica 1 refused: The budget 'Cap' is used up for 2030-05/);

    // The next pass, still refused for the same reason: noted once a minute, not every 2 s.
    await autoscaleServices(systemCtx("autoscaler", { now: clock.now }), { serviceId: service.id });
    expect((await events(service.id)).filter((e) => e.code === "replica_refused")).toHaveLength(1);
  });
});

describe("services: spot replicas whose capacity is reclaimed", () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    process.env.FORJA_SIM_SPEED = "400";
    // This is about reclaimed spot capacity: the simulator's 3 % failed starts would leave the replica failed
    // and the wait below timed out one run in 33 (CI saw it).
    process.env.FORJA_SIM_FAILURE_RATE = "0";
    fleet = await newFleet([{ gpus: 8 }]);
  });
  const pass = (serviceId: string) =>
    autoscaleServices(systemCtx("autoscaler"), { regionCode: fleet.region, serviceId });
  async function runningSpotReplica(onDemandFallback: boolean) {
    const o = await newOrg("svc-spot");
    await bigQuota(o.org.id, fleet.region);
    const { service } = await createService(
      o.ctx,
      o.slug,
      spec(fleet.region, "h100.1x", { pricingModel: "spot", onDemandFallback }),
    );
    await pass(service.id);
    const [first] = await getDb()
      .select()
      .from(serviceReplicas)
      .where(eq(serviceReplicas.serviceId, service.id));
    if (!first) throw new Error("no replica launched");
    // Sped up 400×, the simulated provider may interrupt the spot capacity itself before we reclaim it.
    const state = await waitFor("the spot replica running", async () => {
      await placeQueuedInstances(systemCtx("scheduler"), { regionCode: fleet.region });
      await reconcileInstances(systemCtx("provider"), { regionCode: fleet.region });
      const [i] = await getDb().select().from(instances).where(eq(instances.id, first.instanceId));
      return i && ["running", "preempting", "preempted"].includes(i.state) ? i.state : null;
    });
    if (state === "running") await preemptInstance(systemCtx("scheduler"), first.instanceId);
    await pass(service.id);
    return service.id;
  }

  it("replaces it on-demand when the spec allows the fallback, saying so on the service", async () => {
    const id = await runningSpotReplica(true);
    const rows = await replicas(id);
    expect(rows).toEqual([
      { ordinal: 1, pricing: "spot", state: expect.stringMatching(/^preempt/), ended: true },
      expect.objectContaining({ ordinal: 2, pricing: "on_demand", ended: false }),
    ]);
    const texts = (await events(id)).map((e) => e.text);
    expect(texts).toContain("Spot capacity was reclaimed (replica 1); replica 2 replaces it on-demand");
    expect(texts).toContain("Replica 2 launched (on-demand)");
  });

  it("replaces it with spot again when the spec does not allow on-demand", async () => {
    const id = await runningSpotReplica(false);
    const rows = await replicas(id);
    expect(rows[1]).toEqual(expect.objectContaining({ ordinal: 2, pricing: "spot", ended: false }));
    expect((await events(id)).map((e) => e.code)).not.toContain("spot_reclaimed_fallback");
  });
});
