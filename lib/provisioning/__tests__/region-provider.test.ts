import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  applyTransitions,
  createFixedProvider,
  getProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  setRegionProvider,
  stop,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, snapshot, type TestFleet } from "./fixtures";

// Two regions on one worker: one on Forja's own placement, one attached to a cluster-placed engine.
let own: TestFleet;
let cluster: TestFleet;
const engine = { ...createFixedProvider({ stopMs: 99_000 }), name: "engine", placement: "cluster" as const };

beforeAll(async () => {
  setProvider(createFixedProvider({ provisionMs: 30_000 }));
  own = await newFleet([{ gpus: 8 }]);
  cluster = await newFleet([{ gpus: 8 }]);
  setRegionProvider(cluster.region, engine);
});
afterAll(() => setRegionProvider(cluster.region, null));

describe("a region attached to a cluster-placed engine", () => {
  it("is asked of its own engine; other regions keep the installed provider", () => {
    expect(getProvider(cluster.region).name).toBe("engine");
    expect(getProvider(own.region).name).toBe("fixed");
    expect(getProvider().name).toBe("fixed");
  });

  it("is never placed by Forja's scheduler nor moved by the deadline reconciler", async () => {
    const o = await newOrg("regprov");
    const sys = systemCtx("scheduler", { now: o.clock.now });
    const a = (await launch(o.ctx, o.slug, notebookSpec(own.region))).instance.id;
    const b = (await launch(o.ctx, o.slug, notebookSpec(cluster.region))).instance.id;
    // Each pass names its region: vitest files share one database, and an unscoped pass would move (or place)
    // other suites' instances. The named cluster region below is the check that the scheduler stands aside.
    const placed = await placeQueuedInstances(sys, { regionCode: own.region });
    expect(placed.regions).toContain(own.region);
    expect(placed.regions).not.toContain(cluster.region);
    o.clock.advance(30_000);
    await reconcileInstances(sys, { regionCode: own.region });
    await reconcileInstances(sys, { regionCode: cluster.region });
    expect((await snapshot(a)).state).toBe("running");
    expect((await snapshot(b)).state).toBe("queued");
    // Even asked for by name, the region is left to its engine.
    expect((await placeQueuedInstances(sys, { regionCode: cluster.region })).placed).toBe(0);
    expect((await snapshot(b)).state).toBe("queued");
  });

  it("takes its stop delay from its engine", async () => {
    const o = await newOrg("regprov");
    const b = (await launch(o.ctx, o.slug, notebookSpec(cluster.region))).instance.id;
    // What the engine's sync pass does when it sees the workload up.
    const at = o.clock.now();
    const c = systemCtx("provider", { now: o.clock.now });
    await getDb().transaction(async (tx) => {
      await applyTransitions(tx, c, [
        { id: b, orgId: o.org.id, from: "queued", to: "provisioning", reason: "scheduled", at },
      ]);
      await applyTransitions(tx, c, [
        {
          id: b,
          orgId: o.org.id,
          from: "provisioning",
          to: "running",
          reason: "up",
          at,
          patch: { startedAt: at },
        },
      ]);
    });
    await stop(o.ctx, o.slug, b);
    expect((await snapshot(b)).deadline?.getTime()).toBe(at.getTime() + 99_000);
  });
});
