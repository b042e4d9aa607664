import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  stop,
} from "@/lib/provisioning";
import { estimateInstanceCosts, listLaunchImages } from "@/lib/provisioning/queries-ui";
import { bigQuota, newFleet, newOrg, notebookSpec, type TestFleet } from "./fixtures";

const MIN = 60_000;
const HOUR = 60 * MIN;

let fleet: TestFleet;
beforeAll(async () => {
  setProvider(createFixedProvider({ provisionMs: MIN, stopMs: 10 * MIN }));
  fleet = await newFleet([{ gpus: 8 }]);
});

/** Launch, place and bring up one h100.1x on-demand notebook (the test fleet prices it at $2.50/h). */
async function runningInstance(org: Awaited<ReturnType<typeof newOrg>>) {
  const { instance } = await launch(org.ctx, org.slug, notebookSpec(fleet.region));
  await placeQueuedInstances(systemCtx("scheduler"), { regionCode: fleet.region, now: org.clock.now() });
  org.clock.advance(MIN);
  await reconcileInstances(systemCtx("provider"), { now: org.clock.now(), regionCode: fleet.region });
  return instance.id;
}

describe("estimateInstanceCosts", () => {
  it("bills the hours in compute states (running, stopping) at the catalog price, not queue or provisioning", async () => {
    const org = await newOrg("cost");
    await bigQuota(org.org.id, fleet.region);
    const id = await runningInstance(org);
    org.clock.advance(2 * HOUR);
    await stop(org.ctx, org.slug, id);
    org.clock.advance(10 * MIN);
    await reconcileInstances(systemCtx("provider"), { now: org.clock.now(), regionCode: fleet.region });
    // Stopped for 50 minutes more: storage, not compute.
    org.clock.advance(50 * MIN);

    const costs = await estimateInstanceCosts(org.ctx, org.slug, [id]);
    const c = costs.get(id);
    expect(c?.usdPerHour).toBe(2.5);
    expect(c?.hours).toBeCloseTo(2 + 10 / 60, 6);
    expect(c?.usd).toBe(Math.round((2 + 10 / 60) * 2.5 * 100) / 100);
  });

  it("counts a running instance up to now, for a viewer too", async () => {
    const org = await newOrg("cost-live");
    await bigQuota(org.org.id, fleet.region);
    const id = await runningInstance(org);
    org.clock.advance(30 * MIN);
    const viewer = await org.as("viewer");
    const c = (await estimateInstanceCosts(viewer, org.slug, [id])).get(id);
    expect(c?.hours).toBeCloseTo(0.5, 6);
    expect(c?.usd).toBe(1.25);
  });

  it("never reads another organization's instance", async () => {
    const a = await newOrg("cost-a");
    await bigQuota(a.org.id, fleet.region);
    const id = await runningInstance(a);
    const b = await newOrg("cost-b");
    expect((await estimateInstanceCosts(b.ctx, b.slug, [id])).size).toBe(0);
    await expect(estimateInstanceCosts(b.ctx, a.slug, [id])).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("listLaunchImages", () => {
  it("lists the seeded images with the kinds they run as", async () => {
    const images = await listLaunchImages({});
    expect(images.find((i) => i.id === "cuda-12.6-base")?.kinds).toEqual(["container"]);
    expect(images.find((i) => i.id === "pytorch-2.5-cuda12.4")?.kinds).toEqual(["notebook", "container"]);
  });
});
