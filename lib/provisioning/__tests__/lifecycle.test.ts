import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidStateError, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, instanceEvents, instances } from "@/lib/db/schema";
import {
  applyTransition,
  CAPACITY_STATES,
  INSTANCE_STATES,
  type InstanceState,
  TRANSITIONS,
} from "@/lib/provisioning";
import { why } from "../event-reasons";
import { newFleet, newOrg, type TestFleet } from "./fixtures";

let fleet: TestFleet;
let org: Awaited<ReturnType<typeof newOrg>>;
beforeAll(async () => {
  // A GPU of its own for every capacity-holding row below.
  fleet = await newFleet([{ gpus: 64 }, { gpus: 64 }]);
  org = await newOrg("life");
});

let gpuCursor = 0;
const gpuAt = (i: number) => {
  const node = fleet.nodes[Math.floor(i / 64)] as TestFleet["nodes"][number];
  return { nodeId: node.id, gpuId: node.gpuIds[i % 64] as string };
};

/** An instance row put straight into a state (with a GPU held when the state holds capacity). */
async function instanceIn(state: InstanceState) {
  const db = getDb();
  const now = org.clock.now();
  const holds = CAPACITY_STATES.includes(state);
  const nextGpu = gpuAt(gpuCursor);
  const [row] = await db
    .insert(instances)
    .values({
      orgId: org.org.id,
      projectId: org.project.id,
      name: `x-${randomInt(1e9)}`,
      kind: "container",
      state,
      regionCode: fleet.region,
      instanceTypeId: "h100.1x",
      gpuModelId: "h100",
      gpuCount: 1,
      slicesPerGpu: 7,
      pricingModel: "on_demand",
      imageId: "cuda-12.6-base",
      diskGib: 100,
      workload: "training",
      nodeId: holds ? nextGpu.nodeId : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("insert failed");
  if (holds) {
    await db.insert(gpuAllocations).values({
      orgId: org.org.id,
      instanceId: row.id,
      nodeId: nextGpu.nodeId,
      nodeGpuId: nextGpu.gpuId,
      slices: 7,
    });
    gpuCursor++;
  }
  return row;
}

const pairs = INSTANCE_STATES.flatMap((from) => INSTANCE_STATES.map((to) => [from, to] as const));
const illegal = pairs.filter(([from, to]) => !TRANSITIONS[from].includes(to));
const legal = pairs.filter(([from, to]) => TRANSITIONS[from].includes(to));

describe("the transition table", () => {
  it("matches the lifecycle of design.md", () => {
    expect(TRANSITIONS.requested).toEqual(["queued", "rejected"]);
    expect(TRANSITIONS.queued).toEqual(["provisioning", "cancelled"]);
    expect(TRANSITIONS.stopped).toEqual(["queued", "terminating"]);
    expect(TRANSITIONS.preempted).toEqual(["queued", "terminating"]);
    for (const t of ["terminated", "failed", "rejected", "cancelled"] as const)
      expect(TRANSITIONS[t]).toEqual([]);
  });

  it.each(illegal)("refuses %s → %s, naming both, and changes nothing", async (from, to) => {
    const inst = await instanceIn(from);
    const err = await applyTransition(getDb(), systemCtx("test"), {
      id: inst.id,
      orgId: inst.orgId,
      from,
      to,
      reason: "test",
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidStateError);
    expect((err as Error).message).toContain(`"${from}" to "${to}"`);
    const [after] = await getDb().select().from(instances).where(eq(instances.id, inst.id));
    expect(after?.state).toBe(from);
    expect(await getDb().$count(instanceEvents, eq(instanceEvents.instanceId, inst.id))).toBe(0);
  });

  it.each(legal)("applies %s → %s with an event, releasing GPUs when capacity is left", async (from, to) => {
    const inst = await instanceIn(from);
    const ctx = { actor: org.actor, now: org.clock.now };
    await getDb().transaction((tx) =>
      applyTransition(tx, ctx, { id: inst.id, orgId: inst.orgId, from, to, reason: "because" }),
    );
    const [after] = await getDb().select().from(instances).where(eq(instances.id, inst.id));
    expect(after?.state).toBe(to);
    const events = await getDb().select().from(instanceEvents).where(eq(instanceEvents.instanceId, inst.id));
    expect(events.map((e) => [e.fromState, e.toState, e.reason, e.actorKind, e.actorUserId])).toEqual([
      [from, to, "because", "user", org.user.id],
    ]);
    expect(events[0]?.at.toISOString()).toBe(org.clock.now().toISOString());
    const held = await getDb().$count(
      gpuAllocations,
      sql`${gpuAllocations.instanceId} = ${inst.id} and ${gpuAllocations.releasedAt} is null`,
    );
    // Leaving capacity releases; the transition never allocates (placement writes allocations itself).
    expect(held).toBe(CAPACITY_STATES.includes(from) && CAPACITY_STATES.includes(to) ? 1 : 0);
  });

  it("stores a coded reason as code + parameters beside its English text, and free text without a code", async () => {
    const inst = await instanceIn("running");
    const ctx = { actor: org.actor, now: org.clock.now };
    await getDb().transaction((tx) =>
      applyTransition(tx, ctx, {
        id: inst.id,
        orgId: inst.orgId,
        from: "running",
        to: "preempting",
        reason: why("spot_interrupted", { seconds: 30 }),
      }),
    );
    await getDb().transaction((tx) =>
      applyTransition(tx, ctx, {
        id: inst.id,
        orgId: inst.orgId,
        from: "preempting",
        to: "preempted",
        reason: "an operator's own words",
      }),
    );
    const events = await getDb()
      .select()
      .from(instanceEvents)
      .where(eq(instanceEvents.instanceId, inst.id))
      .orderBy(instanceEvents.id);
    expect(events.map((e) => [e.reason, e.reasonCode, e.reasonParams])).toEqual([
      ["Spot capacity interrupted by the provider; notice of 30 s", "spot_interrupted", { seconds: 30 }],
      ["an operator's own words", null, null],
    ]);
  });

  it("refuses a transition when the instance moved on meanwhile (optimistic check)", async () => {
    const inst = await instanceIn("running");
    const ctx = systemCtx("test");
    await applyTransition(getDb(), ctx, {
      id: inst.id,
      orgId: inst.orgId,
      from: "running",
      to: "stopping",
      reason: "a",
    });
    await expect(
      applyTransition(getDb(), ctx, {
        id: inst.id,
        orgId: inst.orgId,
        from: "running",
        to: "terminating",
        reason: "b",
      }),
    ).rejects.toThrow(/no longer "running"/);
  });
});
