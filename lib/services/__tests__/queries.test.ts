import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceReplicas, serviceTraffic, usageRecords } from "@/lib/db/schema";
import { launch } from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createService, getService, LATENCY_BUCKETS_MS, listServices } from "@/lib/services";

let fleet: TestFleet;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
});

const hist = (pairs: Array<[bucket: number, n: number]>) => {
  const h = new Array(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const [b, n] of pairs) h[b] = n;
  return h;
};

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
    const { instance } = await launch(o.ctx, o.slug, {
      kind: "container",
      name: "figures-r1",
      project: "default",
      region: fleet.region,
      instanceType: "h100.1x",
      image: "pytorch-2.5-cuda12.4",
    });
    await getDb()
      .insert(serviceReplicas)
      .values({
        orgId: o.org.id,
        serviceId: service.id,
        instanceId: instance.id,
        ordinal: 1,
        pricingModel: "on_demand",
        startedAt: at(100),
        readyAt: at(80),
        createdAt: at(110),
      });
    await getDb()
      .insert(usageRecords)
      .values({
        orgId: o.org.id,
        instanceId: instance.id,
        kind: "compute",
        regionCode: fleet.region,
        periodStart: at(110),
        periodEnd: at(0),
        seconds: 110,
        quantity: "1",
        unit: "instance-hour",
        unitPrice: "2.5",
        amount: "0.5",
        createdAt: now,
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
