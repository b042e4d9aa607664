import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, InvalidStateError, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { organizations, reservations } from "@/lib/db/schema";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  start,
  stop,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, snapshot } from "./fixtures";

// Issue 12 item 15: start() put a stopped instance back in the queue without re-checking what launch checks.
beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 5_000 })));

async function stoppedInstance(over: Record<string, unknown> = {}) {
  const fleet = await newFleet([{ gpus: 4 }]);
  const o = await newOrg("restart");
  const sys = systemCtx("scheduler", { now: o.clock.now });
  if (over.pricingModel === "reserved") {
    await getDb()
      .insert(reservations)
      .values({
        orgId: o.org.id,
        gpuModelId: "h100",
        regionCode: fleet.region,
        gpuCount: 1,
        term: "reserved_1m",
        startsAt: new Date(o.clock.now().getTime() - 86_400_000),
        endsAt: new Date(o.clock.now().getTime() + 20 * 86_400_000),
      });
  }
  const { instance } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, over));
  await placeQueuedInstances(sys, { regionCode: fleet.region });
  o.clock.advance(10_000);
  await reconcileInstances(sys, { regionCode: fleet.region });
  await stop(o.ctx, o.slug, instance.id);
  o.clock.advance(5_000);
  await reconcileInstances(sys, { regionCode: fleet.region });
  expect((await snapshot(instance.id)).state).toBe("stopped");
  return { fleet, o, id: instance.id };
}

describe("start re-checks what launch checks", () => {
  it("refuses a region the data-residency policy no longer allows", async () => {
    const { o, id } = await stoppedInstance();
    await getDb()
      .update(organizations)
      .set({ allowedJurisdictions: ["CH"] })
      .where(eq(organizations.id, o.org.id));
    const err = await start(o.ctx, o.slug, id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect(String(err)).toMatch(/data-residency policy allows only CH/);
    expect((await snapshot(id)).state).toBe("stopped");
  });

  it("refuses a retired price instead of billing $0", async () => {
    const { fleet, o, id } = await stoppedInstance();
    await getDb().execute(sql`
      update prices set effective_to = ${o.clock.now()}
      where region_code = ${fleet.region} and instance_type_id = 'h100.1x' and pricing_model = 'on_demand'`);
    const err = await start(o.ctx, o.slug, id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidStateError);
    expect(String(err)).toMatch(/no longer offered on-demand/);
    expect((await snapshot(id)).state).toBe("stopped");
  });

  it("refuses a reserved instance when its reservation has no room left", async () => {
    const { fleet, o, id } = await stoppedInstance({ pricingModel: "reserved" });
    // While it was stopped, another instance took the one reserved GPU.
    await launch(o.ctx, o.slug, notebookSpec(fleet.region, { pricingModel: "reserved" }));
    const err = await start(o.ctx, o.slug, id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidStateError);
    expect(String(err)).toMatch(/reservation .* has no unused GPUs/);
    expect((await snapshot(id)).state).toBe("stopped");
  });

  it("still starts when nothing changed", async () => {
    const { o, id } = await stoppedInstance();
    expect((await start(o.ctx, o.slug, id)).state).toBe("queued");
  });
});
