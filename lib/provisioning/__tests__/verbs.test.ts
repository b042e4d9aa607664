import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, InvalidStateError, NotFoundError, QuotaExceededError, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { projects, quotas } from "@/lib/db/schema";
import {
  cancel,
  checkCapacityInvariants,
  createFixedProvider,
  getInstance,
  launch,
  listInstances,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  start,
  stop,
  terminate,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, snapshot, type TestFleet } from "./fixtures";

let fleet: TestFleet;
beforeAll(async () => {
  setProvider(createFixedProvider({ provisionMs: 30_000, stopMs: 10_000, terminateMs: 5_000 }));
  fleet = await newFleet([{ gpus: 8 }, { gpus: 8 }]);
});

async function world() {
  const o = await newOrg("verbs");
  const sys = systemCtx("scheduler", { now: o.clock.now });
  const settle = async () => {
    await placeQueuedInstances(sys, { regionCode: fleet.region });
    o.clock.advance(30_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
  };
  const running = async (over: Record<string, unknown> = {}) => {
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, over));
    await settle();
    expect((await snapshot(instance.id)).state).toBe("running");
    return instance.id;
  };
  return { o, sys, settle, running };
}

describe("stop, start, terminate, cancel", () => {
  it("stops gracefully: GPUs held while stopping, released once stopped", async () => {
    const { o, sys, running } = await world();
    const id = await running({ instanceType: "h100.2x" });
    const stopped = await stop(o.ctx, o.slug, id);
    expect(stopped.state).toBe("stopping");
    expect((await snapshot(id)).alloc).toHaveLength(2);
    o.clock.advance(10_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
    const after = await snapshot(id);
    expect(after.state).toBe("stopped");
    expect(after.alloc).toEqual([]);
    await expect(stop(o.ctx, o.slug, id)).rejects.toBeInstanceOf(InvalidStateError);
    expect(await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("starts a stopped instance again through the queue, checking the quota anew", async () => {
    const { o, sys, running, settle } = await world();
    await getDb()
      .insert(quotas)
      .values({ orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 1 });
    const id = await running();
    await stop(o.ctx, o.slug, id);
    o.clock.advance(10_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
    // While it is stopped its GPU is not counted, so another launch may take the quota...
    const other = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await expect(start(o.ctx, o.slug, id)).rejects.toBeInstanceOf(QuotaExceededError);
    await cancel(o.ctx, o.slug, other.instance.id);
    // ...and once it is free again, start queues and the scheduler runs it.
    const started = await start(o.ctx, o.slug, id);
    expect(started.state).toBe("queued");
    expect(started.nodeId).toBeNull();
    await settle();
    expect((await snapshot(id)).state).toBe("running");
  });

  it("terminates: GPUs released at once, terminated after the teardown delay; a queued one is cancelled", async () => {
    const { o, sys, running } = await world();
    const id = await running({ instanceType: "h100.4x" });
    const t = await terminate(o.ctx, o.slug, id);
    expect(t.state).toBe("terminating");
    expect((await snapshot(id)).alloc).toEqual([]);
    o.clock.advance(5_000);
    await reconcileInstances(sys, { regionCode: fleet.region });
    expect((await snapshot(id)).state).toBe("terminated");
    await expect(terminate(o.ctx, o.slug, id)).rejects.toBeInstanceOf(InvalidStateError);
    const { instance: q } = await launch(
      o.ctx,
      o.slug,
      notebookSpec(fleet.region, { instanceType: "h100.8x" }),
    );
    expect((await terminate(o.ctx, o.slug, q.id)).state).toBe("cancelled");
  });

  it("cancels only queued instances", async () => {
    const { o, running } = await world();
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.8x" }));
    expect((await cancel(o.ctx, o.slug, instance.id)).state).toBe("cancelled");
    const id = await running();
    await expect(cancel(o.ctx, o.slug, id)).rejects.toThrow(/Only a queued instance can be cancelled/);
  });

  it("refuses viewers and hides other organizations' instances", async () => {
    const { o, running } = await world();
    const id = await running();
    const viewer = await o.as("viewer");
    await expect(stop(viewer, o.slug, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(terminate(viewer, o.slug, id)).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getInstance(viewer, o.slug, id)).instance.id).toBe(id);
    const other = await newOrg("other");
    await expect(getInstance(other.ctx, other.slug, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stop(other.ctx, other.slug, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getInstance(other.ctx, o.slug, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getInstance(o.ctx, o.slug, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
    expect((await listInstances(other.ctx, other.slug)).total).toBe(0);
  });
});

describe("connection details", () => {
  // Issue 12 item 3: a viewer must not get the notebook URL with its token, the endpoint or the ssh line.
  it("are for members and up, never for viewers", async () => {
    const { o, running } = await world();
    const id = await running();
    expect((await getInstance(o.ctx, o.slug, id)).instance.connection?.url).toMatch(/^https:/);
    const member = await o.as("member");
    expect((await getInstance(member, o.slug, id)).instance.connection).not.toBeNull();
    const viewer = await o.as("viewer");
    const seen = await getInstance(viewer, o.slug, id);
    expect(seen.instance.state).toBe("running");
    expect(seen.instance.connection).toBeNull();
  });
});

describe("getInstance and listInstances", () => {
  it("returns the status timeline from the events", async () => {
    const { o, running } = await world();
    const id = await running();
    const d = await getInstance(o.ctx, o.slug, id);
    expect(d.events.map((e) => e.toState)).toEqual(["requested", "queued", "provisioning", "running"]);
    expect(d.events[2]?.actorKind).toBe("scheduler");
    expect(d.nodeName).toMatch(fleet.region);
    expect(d.project.slug).toBe("default");
    expect(d.instance.connection?.url).toMatch(/^https:/);
  });

  it("filters by project, state and region, newest first, with pages", async () => {
    const { o, running } = await world();
    const [p2] = await getDb()
      .insert(projects)
      .values({ orgId: o.org.id, slug: "research", name: "Research" })
      .returning();
    const r1 = await running();
    const { instance: q1 } = await launch(
      o.ctx,
      o.slug,
      notebookSpec(fleet.region, { instanceType: "h100.4x" }),
    );
    o.clock.advance(1000);
    const { instance: q2 } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { project: "research" }));
    expect((await listInstances(o.ctx, o.slug)).items.map((i) => i.id)).toEqual([q2.id, q1.id, r1]);
    expect((await listInstances(o.ctx, o.slug, { state: "running" })).items.map((i) => i.id)).toEqual([r1]);
    const byProject = await listInstances(o.ctx, o.slug, { project: "research" });
    expect(byProject.items.map((i) => [i.id, i.projectSlug])).toEqual([[q2.id, "research"]]);
    expect((await listInstances(o.ctx, o.slug, { project: p2?.id })).total).toBe(1);
    expect((await listInstances(o.ctx, o.slug, { region: "elsewhere" })).total).toBe(0);
    const page2 = await listInstances(o.ctx, o.slug, { page: 2, pageSize: 2 });
    expect(page2.items.map((i) => i.id)).toEqual([r1]);
    expect(page2.total).toBe(3);
  });
});
