import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ctx, NotFoundError, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instances, organizations } from "@/lib/db/schema";
import {
  createFixedProvider,
  expectedWait,
  launch,
  placeQueuedInstances,
  queueInsight,
  reconcileInstances,
  setProvider,
  terminate,
} from "@/lib/provisioning";
import { createCohort, setCohortMember, setOrgQuota } from "@/lib/quotas";
import { bigQuota, newFleet, newOrg, notebookSpec } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 30_000 })));
const MIN = 60_000;

async function world(specs: Parameters<typeof newFleet>[0], jurisdiction?: string) {
  const fleet = await newFleet(specs, { jurisdiction });
  const o = await newOrg("queue");
  await bigQuota(o.org.id, fleet.region);
  const sys = systemCtx("scheduler", { now: o.clock.now });
  const up = async (over: Record<string, unknown>) => {
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, over));
    o.clock.advance(1000);
    return instance;
  };
  const tick = () => placeQueuedInstances(sys, { regionCode: fleet.region });
  const settle = async () => {
    await tick();
    o.clock.advance(30_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
  };
  return { fleet, o, up, tick, settle };
}

describe("queue insight", () => {
  it("gives the position and an ETA replayed from max runtimes", async () => {
    const w = await world([{ gpus: 2 }]);
    const a = await w.up({ instanceType: "h100.2x", maxRuntimeMinutes: 60 });
    await w.settle();
    const b = await w.up({ instanceType: "h100.1x", maxRuntimeMinutes: 30 });
    const c = await w.up({ instanceType: "h100.2x" });
    const aStarted = (await getDb().query.instances.findFirst({ where: (i, { eq }) => eq(i.id, a.id) }))
      ?.startedAt;
    const insight = await queueInsight(w.o.ctx, w.o.slug, c.id);
    expect(insight.position).toBe(2);
    expect(insight.estimate?.method).toBe("runtime");
    // a ends at start + 60 min; b then runs 30 min; only then do both GPUs come free for c.
    const expected = ((aStarted as Date).getTime() + 90 * MIN - w.o.clock.now().getTime()) / 1000;
    expect(insight.estimate?.etaSeconds).toBe(Math.round(expected));
    expect((await queueInsight(w.o.ctx, w.o.slug, b.id)).position).toBe(1);
  });

  it("an instance held back by quota gets its ETA from its organization's own work, not from free GPUs", async () => {
    const w = await world([{ gpus: 8 }]);
    const op: Ctx = { actor: { ...(w.o.actor as UserActor), isOperator: true }, now: w.o.clock.now };
    // In a cohort whose other member lends nothing: nominal 1 + borrowing 2 admits, the gate holds back.
    const lender = await newOrg("queue-lender");
    const cohort = await createCohort(op, { name: `c-${w.fleet.region}` });
    await setCohortMember(op, { cohortId: cohort.id, orgId: w.o.org.id, weight: 1 });
    await setCohortMember(op, { cohortId: cohort.id, orgId: lender.org.id, weight: 1 });
    const k = { gpuModelId: "h100", regionCode: w.fleet.region };
    await setOrgQuota(op, { ...k, orgId: lender.org.id, nominalGpus: 0, borrowingLimitGpus: 0 });
    await setOrgQuota(op, { ...k, orgId: w.o.org.id, nominalGpus: 1, borrowingLimitGpus: 2 });
    const a = await w.up({ instanceType: "h100.1x", maxRuntimeMinutes: 60 });
    await w.settle();
    const b = await w.up({ instanceType: "h100.1x" });
    await w.tick();
    const insight = await queueInsight(w.o.ctx, w.o.slug, b.id);
    // Seven GPUs are free: by capacity alone it would start now.
    expect(insight.estimate?.method).toBe("quota");
    const aStarted = (await getDb().query.instances.findFirst({ where: (i, { eq }) => eq(i.id, a.id) }))
      ?.startedAt as Date;
    expect(insight.estimate?.etaSeconds).toBe(
      Math.round((aStarted.getTime() + 60 * MIN - w.o.clock.now().getTime()) / 1000),
    );
    // Without a max runtime on what holds the quota, there is no ETA to give.
    await getDb().update(instances).set({ maxRuntimeMinutes: null }).where(eq(instances.id, a.id));
    expect((await queueInsight(w.o.ctx, w.o.slug, b.id)).estimate).toMatchObject({
      method: "quota",
      etaSeconds: null,
    });
  });

  it("falls back to the median wait of the last 7 days when what runs has no max runtime", async () => {
    const w = await world([{ gpus: 1 }]);
    const a = await w.up({});
    await w.settle();
    const waited = await w.up({});
    w.o.clock.advance(10 * MIN - 1000);
    await terminate(w.o.ctx, w.o.slug, a.id);
    await w.tick();
    const later = await w.up({});
    const insight = await queueInsight(w.o.ctx, w.o.slug, later.id);
    // Two starts in the history: a waited 1 s, `waited` 600 s; the median of the two is 300.5 s.
    expect(insight.estimate).toMatchObject({ method: "history", etaSeconds: 301, historySamples: 2 });
    expect(waited.state).toBe("queued");
  });

  it("lists alternatives that start sooner, with prices, inside the data-residency policy", async () => {
    const j = `J${randomUUID().slice(0, 6)}`;
    const busy = await world([{ gpus: 1 }], j);
    const free = await newFleet(
      [
        { gpus: 8, mig: [7] },
        { gpus: 8, model: "h200" },
        { gpus: 8, model: "l4" },
      ],
      {
        jurisdiction: j,
      },
    );
    const elsewhere = await newFleet([{ gpus: 8 }], { jurisdiction: `${j}-other` });
    await getDb()
      .update(organizations)
      .set({ allowedJurisdictions: [j] })
      .where(eq(organizations.id, busy.o.org.id));
    await busy.up({});
    await busy.tick();
    const waiting = await busy.up({});
    const insight = await queueInsight(busy.o.ctx, busy.o.slug, waiting.id);
    const got = insight.alternatives.map((a) => [a.kind, a.regionCode, a.instanceTypeId, a.pricingModel]);
    expect(got).toContainEqual(["region", free.region, "h100.1x", "on_demand"]);
    expect(got).toContainEqual(["spot", free.region, "h100.1x", "spot"]);
    expect(got).toContainEqual(["gpu_model", free.region, "h200.1x", "on_demand"]);
    expect(got).toContainEqual(["mig", free.region, "h100.mig-4g.40gb", "on_demand"]);
    expect(got.some(([, r]) => r === elsewhere.region)).toBe(false);
    expect(got.some(([, , t]) => t === "l4.1x")).toBe(false);
    for (const a of insight.alternatives) expect(Number(a.usdPerHour)).toBeGreaterThan(0);
  });

  it("is scoped to the organization and says nothing for an instance that is not queued", async () => {
    const w = await world([{ gpus: 1 }]);
    const a = await w.up({});
    await w.settle();
    expect(await queueInsight(w.o.ctx, w.o.slug, a.id)).toMatchObject({ position: null, estimate: null });
    const other = await newOrg("nosy");
    await expect(queueInsight(other.ctx, other.slug, a.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("judges from the row its caller read: a detail read while queued keeps its queue if placed meanwhile", async () => {
    const w = await world([{ gpus: 1 }]);
    const a = await w.up({});
    const [read] = await getDb().select().from(instances).where(eq(instances.id, a.id));
    await w.tick();
    // Placed since: read again, it has no queue; judged from the row the detail view read, it still has one.
    expect(await queueInsight(w.o.ctx, w.o.slug, a.id)).toMatchObject({ position: null, estimate: null });
    const insight = await queueInsight(w.o.ctx, w.o.slug, a.id, read);
    expect(insight).toMatchObject({ state: "queued", position: 1 });
    expect(insight.estimate).not.toBeNull();
    // Another organization passing this row gets a 404: a row is used only when it is the caller's own.
    const other = await newOrg("nosy-row");
    await expect(queueInsight(other.ctx, other.slug, a.id, read)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("expectedWait", () => {
  it("is zero where capacity is free, and says when a region has none of the GPU", async () => {
    const w = await world([{ gpus: 2 }]);
    expect(await expectedWait(w.fleet.region, "h100.2x", { now: w.o.clock.now })).toMatchObject({
      etaSeconds: 0,
      method: "capacity",
      ahead: 0,
    });
    expect(await expectedWait(w.fleet.region, "h200.1x")).toMatchObject({ method: "no_capacity" });
    await w.up({ instanceType: "h100.2x", maxRuntimeMinutes: 20 });
    await w.settle();
    const est = await expectedWait(w.fleet.region, "h100.1x", { now: w.o.clock.now });
    expect(est?.method).toBe("runtime");
    expect(est?.etaSeconds).toBe(20 * 60);
  });
});
