import { beforeAll, describe, expect, it } from "vitest";
import { QuotaExceededError, systemCtx } from "@/lib/core";
import { getDb, getPool } from "@/lib/db/client";
import { quotas } from "@/lib/db/schema";
import {
  checkCapacityInvariants,
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider()));

/** A region with 16 H100s of which another tenant already runs 8: the last 8 free GPUs are contested. */
async function contested(maxGpus: number) {
  const fleet = await newFleet([{ gpus: 8 }, { gpus: 8 }]);
  const clock = testClock();
  const filler = await newOrg("filler", clock);
  await launch(filler.ctx, filler.slug, notebookSpec(fleet.region, { instanceType: "h100.8x" }));
  const sys = systemCtx("scheduler", { now: clock.now });
  await placeQueuedInstances(sys, { regionCode: fleet.region });
  clock.advance(60_000);
  await reconcileInstances(sys, { regionCode: fleet.region });
  const o = await newOrg("crowd", clock);
  await getDb()
    .insert(quotas)
    .values({ orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus });
  const results = await Promise.allSettled(
    Array.from({ length: 200 }, (_, i) =>
      launch(o.ctx, o.slug, notebookSpec(fleet.region, { name: `c-${i}` })),
    ),
  );
  return { fleet, o, sys, results };
}

async function states(orgId: string) {
  const res = await getDb().execute<{ state: string; n: number }>(
    `select state, count(*)::int as n from instances where org_id = '${orgId}' group by state` as never,
  );
  return Object.fromEntries(res.rows.map((r) => [r.state, r.n]));
}

describe("200 concurrent launches for the last 8 free GPUs", () => {
  it("uses a real pool of at least 10 connections", () => {
    expect(getPool().options.max).toBeGreaterThanOrEqual(10);
  });

  it("accepts all within quota, places exactly 8 in one tick (with rival schedulers), queues the rest", async () => {
    const { fleet, o, sys, results } = await contested(1000);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(200);
    const ticks = await Promise.all(
      [1, 2, 3].map(() => placeQueuedInstances(sys, { regionCode: fleet.region })),
    );
    expect(ticks.reduce((n, t) => n + t.placed, 0)).toBe(8);
    expect(await states(o.org.id)).toEqual({ provisioning: 8, queued: 192 });
    expect(await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("with a quota of 8, accepts exactly 8 and refuses 192 with QuotaExceeded", async () => {
    const { fleet, o, sys, results } = await contested(8);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(8);
    expect(refused).toHaveLength(192);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(QuotaExceededError);
    await placeQueuedInstances(sys, { regionCode: fleet.region });
    expect(await states(o.org.id)).toEqual({ provisioning: 8 });
    expect(await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });
});
