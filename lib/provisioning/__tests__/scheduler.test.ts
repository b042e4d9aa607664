import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  checkCapacityInvariants,
  createFixedProvider,
  drainNode,
  failNode,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  SPOT_NOTICE_MS,
  setProvider,
} from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, snapshot, type TestFleet, testClock } from "./fixtures";

beforeAll(() =>
  setProvider(createFixedProvider({ provisionMs: 30_000, stopMs: 10_000, terminateMs: 5_000 })),
);

const MIN = 60_000;

async function setup(specs: Parameters<typeof newFleet>[0]) {
  const fleet = await newFleet(specs);
  const clock = testClock();
  const o = await newOrg("sched", clock);
  await bigQuota(o.org.id, fleet.region);
  const sys = systemCtx("scheduler", { now: clock.now });
  const tick = () => placeQueuedInstances(sys, { regionCode: fleet.region });
  const reconcile = () =>
    reconcileInstances(systemCtx("reconciler", { now: clock.now }), { regionCode: fleet.region });
  const up = async (over: Record<string, unknown> = {}) => {
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, over));
    clock.advance(1000);
    return instance.id;
  };
  return { fleet, clock, o, tick, reconcile, up };
}

/** Launch, place and bring up to running: the clock moves past the provisioning delay. */
async function running(s: Awaited<ReturnType<typeof setup>>, over: Record<string, unknown> = {}) {
  const id = await s.up(over);
  await s.tick();
  s.clock.advance(30_000);
  await s.reconcile();
  expect((await snapshot(id)).state).toBe("running");
  return id;
}

const nodeOf = (f: TestFleet, id: string | null) => f.nodes.findIndex((n) => n.id === id);

describe("placeQueuedInstances", () => {
  it("packs best-fit: the node left with the fewest free GPUs that still fits", async () => {
    const s = await setup([{ gpus: 8 }, { gpus: 8 }]);
    const a = await s.up({ instanceType: "h100.4x" });
    await s.tick();
    const b = await s.up({ instanceType: "h100.2x" });
    await s.tick();
    const c = await s.up({ instanceType: "h100.4x" });
    const placedAt = s.clock.now().getTime();
    await s.tick();
    const d = await s.up({ instanceType: "h100.1x" });
    await s.tick();
    const where = await Promise.all(
      [a, b, c, d].map(async (id) => nodeOf(s.fleet, (await snapshot(id)).nodeId)),
    );
    // a → n0 (tie, by name); b → n0 (2 left vs 6); c → n1 (n0 has only 2); d → n0 (1 left vs 3).
    expect(where).toEqual([0, 0, 1, 0]);
    const snap = await snapshot(c);
    expect(snap.state).toBe("provisioning");
    expect(snap.alloc).toHaveLength(4);
    expect(snap.deadline?.getTime()).toBe(placedAt + 30_000);
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("places MIG slices only on MIG-mode GPUs and whole GPUs only on the others", async () => {
    const s = await setup([{ gpus: 4, mig: [3] }]);
    const m3 = await s.up({ instanceType: "h100.mig-3g.40gb" });
    const m4 = await s.up({ instanceType: "h100.mig-4g.40gb" });
    const w3 = await s.up({ instanceType: "h100.2x" });
    const w1 = await s.up({ instanceType: "h100.1x" });
    const wMore = await s.up({ instanceType: "h100.1x" });
    const mMore = await s.up({ instanceType: "h100.mig-1g.10gb" });
    await s.tick();
    const [a, b, c, d, e, f] = await Promise.all([m3, m4, w3, w1, wMore, mMore].map(snapshot));
    expect(a?.alloc).toEqual([expect.objectContaining({ gpu_index: 3, slices: 3, mig: true })]);
    expect(b?.alloc).toEqual([expect.objectContaining({ gpu_index: 3, slices: 4, mig: true })]);
    expect(c?.alloc.map((x) => [x.gpu_index, x.slices, x.mig])).toEqual([
      [0, 7, false],
      [1, 7, false],
    ]);
    expect(d?.alloc.map((x) => x.gpu_index)).toEqual([2]);
    // Whole GPUs 0–2 are taken and GPU 3 is in MIG mode and full: both wait.
    expect(e?.state).toBe("queued");
    expect(f?.state).toBe("queued");
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("orders each queue by priority, then first come first served", async () => {
    const s = await setup([{ gpus: 1 }]);
    const admin = await s.o.as("admin");
    const first = await s.up();
    const second = await s.up();
    const { instance: urgent } = await launch(
      admin,
      s.o.slug,
      notebookSpec(s.fleet.region, { priority: 50 }),
    );
    await s.tick();
    expect((await snapshot(urgent.id)).state).toBe("provisioning");
    await getDb().transaction(async (tx) => {
      const { terminate } = await import("@/lib/provisioning");
      await terminate({ ...s.o.ctx, tx }, s.o.slug, urgent.id);
    });
    await s.tick();
    expect((await snapshot(first)).state).toBe("provisioning");
    expect((await snapshot(second)).state).toBe("queued");
  });

  it("never places on a draining or down node, and a node failure fails its instances and frees its GPUs", async () => {
    const s = await setup([{ gpus: 2 }, { gpus: 2 }]);
    const op = systemCtx("ops", { now: s.clock.now });
    await drainNode(op, (s.fleet.nodes[0] as { id: string }).id);
    const a = await s.up({ instanceType: "h100.2x" });
    const b = await s.up({ instanceType: "h100.1x" });
    await s.tick();
    expect(nodeOf(s.fleet, (await snapshot(a)).nodeId)).toBe(1);
    expect((await snapshot(b)).state).toBe("queued");
    const res = await failNode(op, (s.fleet.nodes[1] as { id: string }).id);
    expect(res.failedInstances).toBe(1);
    const failed = await snapshot(a);
    expect(failed.state).toBe("failed");
    expect(failed.alloc).toEqual([]);
    await s.tick();
    expect((await snapshot(b)).state).toBe("queued");
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("refuses node operations to tenants", async () => {
    const s = await setup([{ gpus: 1 }]);
    await expect(drainNode(s.o.ctx, (s.fleet.nodes[0] as { id: string }).id)).rejects.toThrow(/operator/);
  });

  it("backfills only work that cannot delay the head past its reservation", async () => {
    const s = await setup([{ gpus: 8 }]);
    const x1 = await running(s, { instanceType: "h100.4x", maxRuntimeMinutes: 60 });
    const x2 = await running(s, { instanceType: "h100.2x", maxRuntimeMinutes: 60 });
    const head = await s.up({ instanceType: "h100.8x" });
    const long = await s.up({ instanceType: "h100.2x" });
    const short = await s.up({ instanceType: "h100.1x", maxRuntimeMinutes: 10 });
    const res = await s.tick();
    const reservation = res.reservations.find((r) => r.requestId === head);
    expect(reservation).toBeTruthy();
    const x2Started = (await getDb().query.instances.findFirst({ where: (i, { eq }) => eq(i.id, x2) }))
      ?.startedAt;
    expect(reservation?.at).toBe((x2Started as Date).getTime() + 60 * MIN);
    expect((await snapshot(head)).state).toBe("queued");
    expect((await snapshot(long)).state).toBe("queued");
    expect((await snapshot(short)).state).toBe("provisioning");

    // Time passes to the reservation: the max-runtime cap stops x1, x2 and the backfilled job, and the head
    // starts right after the stop delay.
    s.clock.advance(30_000);
    await s.reconcile();
    s.clock.set(new Date(reservation?.at as number));
    expect((await s.reconcile()).maxRuntimeStops).toBe(3);
    s.clock.advance(10_000);
    await s.reconcile();
    expect((await snapshot(x1)).state).toBe("stopped");
    expect((await snapshot(short)).state).toBe("stopped");
    await s.tick();
    expect((await snapshot(head)).state).toBe("provisioning");
    expect((await snapshot(long)).state).toBe("queued");
  });

  it("backfills long work onto GPUs the head will not need", async () => {
    const s = await setup([{ gpus: 8 }]);
    await running(s, { instanceType: "h100.4x", maxRuntimeMinutes: 60 });
    await running(s, { instanceType: "h100.2x" });
    const head = await s.up({ instanceType: "h100.4x" });
    const long = await s.up({ instanceType: "h100.1x" });
    const res = await s.tick();
    expect(res.reservations.map((r) => r.requestId)).toEqual([head]);
    expect((await snapshot(long)).state).toBe("provisioning");
  });

  it("reclaims only as much spot capacity as on-demand work needs, with a notice, then auto-recovers", async () => {
    const s = await setup([{ gpus: 6 }]);
    const spotA = await running(s, { instanceType: "h100.2x", pricingModel: "spot" });
    const spotB = await running(s, { instanceType: "h100.2x", pricingModel: "spot", autoRecover: true });
    const od = await running(s, { instanceType: "h100.2x" });
    await s.reconcile();
    const head = await s.up({ instanceType: "h100.2x" });
    const res = await s.tick();
    expect(res.preempted).toBe(1);
    const b = await snapshot(spotB);
    expect(b.state).toBe("preempting");
    expect(b.deadline?.getTime()).toBe(s.clock.now().getTime() + SPOT_NOTICE_MS);
    expect((await snapshot(spotA)).state).toBe("running");
    expect((await snapshot(od)).state).toBe("running");
    // During the notice nothing more is preempted and the head waits.
    s.clock.advance(60_000);
    expect((await s.tick()).preempted).toBe(0);
    expect((await snapshot(head)).state).toBe("queued");
    s.clock.advance(SPOT_NOTICE_MS);
    const rec = await s.reconcile();
    expect(rec.preempted).toBe(1);
    expect(rec.requeued).toBe(1);
    expect((await snapshot(spotB)).state).toBe("queued");
    await s.tick();
    expect((await snapshot(head)).state).toBe("provisioning");
    // The recovered spot instance waits; spot never reclaims spot.
    expect((await snapshot(spotB)).state).toBe("queued");
    expect((await snapshot(spotA)).state).toBe("running");
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("does not preempt when capacity frees up naturally within the notice", async () => {
    const s = await setup([{ gpus: 2 }]);
    const spot = await running(s, { instanceType: "h100.1x", pricingModel: "spot" });
    const soon = await running(s, { instanceType: "h100.1x", maxRuntimeMinutes: 1 });
    await s.up();
    const res = await s.tick();
    expect(res.preempted).toBe(0);
    expect((await snapshot(spot)).state).toBe("running");
    expect((await snapshot(soon)).state).toBe("running");
  });

  it("never gives a GPU twice when several schedulers tick at once", async () => {
    const s = await setup([{ gpus: 4 }]);
    for (let i = 0; i < 10; i++) await s.up();
    const results = await Promise.all([s.tick(), s.tick(), s.tick()]);
    expect(results.reduce((n, r) => n + r.placed, 0)).toBe(4);
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("never moves a spot instance's interruption watermark back when a pass runs with an older clock", async () => {
    const s = await setup([{ gpus: 2 }]);
    const spot = await running(s, { instanceType: "h100.1x", pricingModel: "spot" });
    await s.reconcile();
    const read = async () =>
      (
        await getDb().execute<{ w: string }>(
          sql`select spot_checked_until::text as w from instances where id = ${spot}`,
        )
      ).rows[0]?.w;
    const watermark = await read();
    expect(watermark).toBeTruthy();
    const older = new Date(s.clock.now().getTime() - 10 * MIN);
    await reconcileInstances(systemCtx("reconciler", { now: () => older }), { regionCode: s.fleet.region });
    expect(await read()).toBe(watermark);
  });
});
