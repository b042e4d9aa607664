import { randomUUID } from "node:crypto";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceEvents, serviceReplicas, serviceTraffic, usageRecords } from "@/lib/db/schema";
import { launch } from "@/lib/provisioning";
import { LATENCY_BUCKETS_MS } from "@/lib/services";

export const hist = (pairs: Array<[bucket: number, n: number]>) => {
  const h = new Array(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const [b, n] of pairs) h[b] = n;
  return h;
};

/**
 * A service's last ten minutes, written as the gateway, the autoscaler, the replica host and metering would
 * (seconds before `now`): 50 requests at 200–300 ms 100 s ago (2 × 4xx, one hold timeout), 100 at 25–50 ms
 * 10 s ago (3 × 5xx); scaled 0 → 1 at 300 s and 1 → 2 at 95 s; one replica created at 290 s, ready at 250 s;
 * $0.60 of ledger for it over the last 600 s. The org needs quota for one h100.1x in `region`.
 */
export async function seedServiceHistory(
  o: { ctx: Ctx; slug: string; org: { id: string } },
  serviceId: string,
  region: string,
  now: Date,
) {
  const at = (s: number) => new Date(now.getTime() - s * 1000);
  const traffic = (s: number, requests: number, s4: number, s5: number, timeouts: number, h: number[]) => ({
    orgId: o.org.id,
    serviceId,
    gateway: "g1",
    at: at(s),
    requests,
    status2xx: requests - s4 - s5,
    status4xx: s4,
    status5xx: s5,
    holdTimeouts: timeouts,
    held: timeouts,
    concurrency: 1,
    queued: 0,
    latencyBuckets: h,
  });
  await getDb()
    .insert(serviceTraffic)
    .values([traffic(100, 50, 2, 1, 1, hist([[8, 50]])), traffic(10, 100, 0, 3, 0, hist([[3, 100]]))]);
  const decision = (s: number, code: string, from: number, to: number) => ({
    orgId: o.org.id,
    serviceId,
    at: at(s),
    code,
    params: { from, to },
    text: `scaled ${from} → ${to}`,
  });
  await getDb()
    .insert(serviceEvents)
    .values([decision(300, "scale_from_zero", 0, 1), decision(95, "scaled_up", 1, 2)]);
  await seedReplica(o, serviceId, region, {
    createdAt: at(290),
    startedAt: at(290),
    readyAt: at(250),
    cost: { from: at(600), to: at(0), usd: 0.6 },
  });
}

/** A replica (a launched instance) with the given times and one ledger row of `cost` for its instance. */
export async function seedReplica(
  o: { ctx: Ctx; slug: string; org: { id: string } },
  serviceId: string,
  region: string,
  r: { createdAt: Date; startedAt: Date; readyAt: Date; cost: { from: Date; to: Date; usd: number } },
) {
  const { instance } = await launch(o.ctx, o.slug, {
    kind: "container",
    name: `replica-${randomUUID().slice(0, 6)}`,
    project: "default",
    region,
    instanceType: "h100.1x",
    image: "pytorch-2.5-cuda12.4",
  });
  await getDb().insert(serviceReplicas).values({
    orgId: o.org.id,
    serviceId,
    instanceId: instance.id,
    ordinal: 1,
    pricingModel: "on_demand",
    startedAt: r.startedAt,
    readyAt: r.readyAt,
    createdAt: r.createdAt,
  });
  const seconds = Math.round((r.cost.to.getTime() - r.cost.from.getTime()) / 1000);
  await getDb()
    .insert(usageRecords)
    .values({
      orgId: o.org.id,
      instanceId: instance.id,
      kind: "compute",
      regionCode: region,
      periodStart: r.cost.from,
      periodEnd: r.cost.to,
      seconds,
      quantity: "1",
      unit: "instance-hour",
      unitPrice: String((r.cost.usd * 3600) / seconds),
      amount: String(r.cost.usd),
      createdAt: r.cost.to,
    });
  return instance;
}
