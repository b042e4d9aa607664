import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceTraffic } from "@/lib/db/schema";
import { bigQuota, newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createService, getService, listServices } from "@/lib/services";
import { hist, seedReplica, seedServiceHistory } from "./history";

let fleet: TestFleet;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
});

describe("service figures", () => {
  it("adds two gateways' seconds: rate, errors, percentiles from the summed histogram, cold starts, cost per 1,000", async () => {
    const o = await newOrg("svc-q");
    await bigQuota(o.org.id, fleet.region);
    const { service } = await createService(o.ctx, o.slug, {
      name: "figures",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
    });
    const now = o.clock.now();
    const at = (s: number) => new Date(now.getTime() - s * 1000);
    const row = (gateway: string, s: number, requests: number, s5: number, h: number[]) => ({
      orgId: o.org.id,
      serviceId: service.id,
      gateway,
      at: at(s),
      requests,
      status2xx: requests - s5,
      status4xx: 0,
      status5xx: s5,
      holdTimeouts: 0,
      held: 0,
      concurrency: 1,
      queued: 0,
      latencyBuckets: h,
    });
    // 900 requests at ≤ 50 ms (bucket 3) and 100 at 200–300 ms (bucket 8), split over two gateways.
    await getDb()
      .insert(serviceTraffic)
      .values([
        row("a", 10, 500, 0, hist([[3, 500]])),
        row("b", 10, 400, 2, hist([[3, 400]])),
        row("a", 20, 100, 0, hist([[8, 100]])),
      ]);
    await seedReplica(o, service.id, fleet.region, {
      createdAt: at(110),
      startedAt: at(100),
      readyAt: at(80),
      cost: { from: at(110), to: at(0), usd: 0.5 },
    });
    const d = await getService(o.ctx, o.slug, "figures", "1h");
    expect(d.stats.requests).toBe(1000);
    expect(d.stats.errors5xx).toBe(2);
    expect(d.stats.p50Ms).toBeGreaterThan(25);
    expect(d.stats.p50Ms).toBeLessThanOrEqual(50);
    expect(d.stats.p95Ms).toBeGreaterThan(200);
    expect(d.stats.p95Ms).toBeLessThanOrEqual(300);
    expect(d.stats.coldStarts).toBe(1);
    expect(d.stats.coldStartMedianS).toBe(20);
    expect(d.stats.costPer1000Usd).toBeCloseTo(0.5, 6);
    const list = await listServices(o.ctx, o.slug);
    expect(list.map((s) => [s.name, s.active])).toEqual([["figures", 1]]);
  });

  it("draws the range in 120 steps: rate, percentiles, errors, desired vs ready, cold starts, cost spread over the steps", async () => {
    const o = await newOrg("svc-series");
    await bigQuota(o.org.id, fleet.region);
    const { service } = await createService(o.ctx, o.slug, {
      name: "series",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
    });
    const now = o.clock.now();
    await seedServiceHistory(o, service.id, fleet.region, now);
    const d = await getService(o.ctx, o.slug, "series", "1h");
    expect(d.stepSeconds).toBe(30);
    expect(d.series).toHaveLength(120);
    const s = d.series;
    const stepAt = (secondsAgo: number) => Math.floor((3600 - secondsAgo) / 30);
    expect(s[0]?.t).toBe(now.getTime() - 3600_000);
    // 100 requests 10 s ago, 50 requests 100 s ago; nothing else.
    expect(s.map((p) => p.rps * 30)).toEqual(
      s.map((_, i) => (i === stepAt(10) ? 100 : i === stepAt(100) ? 50 : 0)),
    );
    const last = s[stepAt(10)];
    expect(last).toMatchObject({
      errors5xx: 3,
      errors4xx: 0,
      holdTimeouts: 0,
      desired: 2,
      ready: 1,
      launched: 1,
    });
    expect(last?.p50Ms).toBeGreaterThan(25);
    expect(last?.p99Ms).toBeLessThanOrEqual(50);
    const slow = s[stepAt(100)];
    expect(slow).toMatchObject({ errors5xx: 1, errors4xx: 2, holdTimeouts: 1 });
    expect(slow?.p50Ms).toBeGreaterThan(200);
    expect(slow?.p95Ms).toBeLessThanOrEqual(300);
    expect(s[0]?.p95Ms).toBeNull();
    // Desired before the first decision is its `from`; between the decisions 1; after the last 2.
    expect([s[stepAt(400)]?.desired, s[stepAt(200)]?.desired, s[stepAt(50)]?.desired]).toEqual([0, 1, 2]);
    expect([s[stepAt(400)]?.launched, s[stepAt(280)]?.ready, s[stepAt(200)]?.ready]).toEqual([0, 0, 1]);
    expect(s.map((p) => p.coldStarts)).toEqual(s.map((_, i) => (i === stepAt(250) ? 1 : 0)));
    // $0.60 over the last 600 s: $0.03 in each of the last 20 steps, none before; per 1,000 of the step's requests.
    expect(s.reduce((a, p) => a + p.costUsd, 0)).toBeCloseTo(0.6, 9);
    expect(s[stepAt(700)]?.costUsd).toBe(0);
    expect(last?.costUsd).toBeCloseTo(0.03, 9);
    expect(last?.costPer1000Usd).toBeCloseTo(0.3, 9);
    expect(s[stepAt(50)]?.costPer1000Usd).toBeNull();
  });

  it("another tenant's service is a NotFound; a viewer may read but not create", async () => {
    const a = await newOrg("svc-q-a");
    const b = await newOrg("svc-q-b");
    await createService(a.ctx, a.slug, {
      name: "mine",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
    });
    await expect(getService(b.ctx, a.slug, "mine")).rejects.toBeInstanceOf(NotFoundError);
    await expect(getService(b.ctx, b.slug, "mine")).rejects.toBeInstanceOf(NotFoundError);
    const viewer = await a.as("viewer");
    expect((await getService(viewer, a.slug, "mine")).service.name).toBe("mine");
    // …but not create one, and a stranger cannot create one in another organization.
    const spec = {
      name: "nope",
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fleet.region,
    };
    await expect(createService(viewer, a.slug, spec)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createService(b.ctx, a.slug, spec)).rejects.toBeInstanceOf(NotFoundError);
  });
});
