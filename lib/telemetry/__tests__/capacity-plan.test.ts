import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, quotas } from "@/lib/db/schema";
import { createFixedProvider, launch, placeQueuedInstances, setProvider } from "@/lib/provisioning";
import { getCapacityPlan, linearTrend } from "@/lib/telemetry";
import { makeUser } from "../../admin/__tests__/fixtures";
import { newFleet, newOrg, notebookSpec, testClock } from "../../provisioning/__tests__/fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

describe("the capacity trend", () => {
  it("fits a least-squares line through the daily peaks and extends it to the capacity", () => {
    expect(linearTrend([1, 2, 3, 4], 10)).toEqual({ slopePerDay: 1, todayGpus: 4, daysToFull: 6 });
    // A partial day rounds up: the line crosses 10 during the 7th day.
    expect(linearTrend([1, 2, 3, 4], 10.5).daysToFull).toBe(7);
    expect(linearTrend([5, 5, 5], 10).daysToFull).toBeNull();
    expect(linearTrend([4, 3, 2], 10).daysToFull).toBeNull();
    // The peak already meets capacity: it has run out today, whatever the line says.
    expect(linearTrend([8, 3, 8], 8).daysToFull).toBe(0);
    expect(linearTrend([], 8).daysToFull).toBeNull();
  });
});

describe("capacity planning", () => {
  it("gives capacity, committed quota, use, queue demand and the exact daily peaks per region × model", async () => {
    const clock = testClock("2030-01-06T09:00:00Z");
    const fleet = await newFleet([{ gpus: 4 }]);
    const node = fleet.nodes[0] as { id: string; gpuIds: string[] };
    const op = { ...(await makeUser(getDb(), { isOperator: true, label: "planop" })).ctx, now: clock.now };
    const a = await newOrg("plana", clock);
    const b = await newOrg("planb", clock);
    await getDb()
      .insert(quotas)
      .values([
        { orgId: a.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 4 },
        { orgId: b.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 3 },
      ]);
    const held = (gpu: number, from: string, to: string | null) => ({
      orgId: a.org.id,
      instanceId: randomUUID(),
      nodeId: node.id,
      nodeGpuId: node.gpuIds[gpu] as string,
      slices: 7,
      allocatedAt: new Date(from),
      releasedAt: to ? new Date(to) : null,
    });
    await getDb()
      .insert(gpuAllocations)
      .values([
        // Jan 3: 1 GPU, then 2 at once for an hour, then 1 left running over Jan 4 until Jan 5.
        held(0, "2030-01-03T10:00:00Z", "2030-01-03T12:00:00Z"),
        held(1, "2030-01-03T11:00:00Z", "2030-01-05T08:00:00Z"),
        // Released and re-allocated at the same instant: still one GPU, not two.
        held(2, "2030-01-05T20:00:00Z", "2030-01-06T08:00:00Z"),
        held(2, "2030-01-06T08:00:00Z", null),
        // Before the window and over: not counted.
        held(3, "2029-11-01T00:00:00Z", "2029-11-02T00:00:00Z"),
      ]);
    // One instance waits 10 minutes and is placed (a second GPU in use today); another stays queued.
    await launch(a.ctx, a.slug, notebookSpec(fleet.region));
    clock.advance(600_000);
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    await launch(a.ctx, a.slug, notebookSpec(fleet.region, { instanceType: "h100.2x" }));

    const plan = await getCapacityPlan(op);
    const row = plan.find((r) => r.regionCode === fleet.region && r.gpuModelId === "h100");
    expect(row).toMatchObject({
      capacityGpus: 4,
      committedGpus: 7,
      usedGpus: 2,
      queuedGpus: 2,
      waitP95Seconds: 600,
    });
    expect(row?.dailyPeaks).toHaveLength(30);
    expect(row?.dailyPeaks.slice(0, 26).every((v) => v === 0)).toBe(true);
    // Jan 3 peak 2; Jan 4 carries the 1 still held; Jan 5: 1 (released in the morning, another at night);
    // Jan 6: 2 (the one held since 08:00 and the instance placed at 09:10).
    expect(row?.dailyPeaks.slice(26)).toEqual([2, 1, 1, 2]);
    const trend = linearTrend(row?.dailyPeaks ?? [], 4);
    expect(row?.daysToFull).toBe(trend.daysToFull);
    expect(row?.slopePerDay).toBeGreaterThan(0);
    expect(row?.fullOn?.getTime()).toBe(
      Date.parse("2030-01-06T00:00:00Z") + (trend.daysToFull ?? 0) * 86_400_000,
    );

    await expect(getCapacityPlan(a.ctx)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
