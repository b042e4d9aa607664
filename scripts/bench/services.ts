import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { placeQueuedInstances, reconcileInstances } from "@/lib/provisioning";
// biome-ignore lint/style/noRestrictedImports: the bench builds its own region (prices, nodes) the way the tests do
import { bigQuota, newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { autoscaleServices, createReplicaHost, createService, quantile, startGateway } from "@/lib/services";
import type { Benchmark } from "./types";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Requests per second for each 5 s step: up to a few hundred and back down. */
const RAMP = [20, 60, 120, 200, 300, 300, 300, 200, 100, 30];
const STEP_S = 5;
const TARGET_RPS = 40;
const MAX = 10;
const COLD_START_MS = 8000;

type Outcome = {
  firstReadyS: number | null;
  p95Ms: number | null;
  replicaSeconds: number;
  idealReplicaSeconds: number;
  requests: number;
  errors: number;
};

/**
 * The services stack for real on loopback: the gateway, the replica host (model servers with an 8 s cold start,
 * 8 concurrent requests each, 60 ms + 15 ms per other request in flight), the scheduler/reconciler passes and
 * the autoscaler every 2 s as in the worker. autocannon drives a ramp 20 → 300 → 30 req/s; the same traffic
 * runs against a service pinned at max replicas as the baseline. Reported once (not timed per run).
 */
async function scenario(region: string, pinned: boolean): Promise<Outcome> {
  const o = await newOrg("bench-svc");
  await bigQuota(o.org.id, region);
  const ctx = { ...o.ctx, now: () => new Date() };
  const { service, token } = await createService(ctx, o.slug, {
    name: pinned ? "pinned" : "autoscaled",
    image: "pytorch-2.5-cuda12.4",
    instanceType: "h100.1x",
    region,
    minReplicas: pinned ? MAX : 0,
    maxReplicas: MAX,
    metric: "rps",
    target: TARGET_RPS,
    scaleDownDelaySeconds: 10,
    scaleToZeroGraceSeconds: 15,
  });
  process.env.FORJA_SIM_SPEED = "400";
  const gateway = await startGateway({ holdTimeoutMs: 60_000 });
  const host = createReplicaHost({
    regionCode: region,
    server: { coldStartMs: COLD_START_MS, concurrency: 8, baseLatencyMs: 60, perInflightMs: 15 },
  });
  let stopped = false;
  const loop = async (ms: number, fn: () => Promise<unknown>) => {
    while (!stopped) {
      await fn().catch((e) => console.error(e));
      await sleep(ms);
    }
  };
  const loops = [
    loop(500, async () => {
      await placeQueuedInstances(systemCtx("scheduler"), { regionCode: region });
      await reconcileInstances(systemCtx("provider"), { regionCode: region });
    }),
    loop(250, () => host.pass()),
    loop(2000, () => autoscaleServices(systemCtx("autoscaler"), { regionCode: region })),
  ];
  if (pinned) {
    // The baseline starts warm: every replica ready before traffic.
    for (;;) {
      const r = await getDb().execute<{ n: number }>(
        sql`select count(*)::int as n from service_replicas where service_id = ${service.id} and ready_at is not null and ended_at is null`,
      );
      if ((r.rows[0]?.n ?? 0) >= MAX) break;
      await sleep(500);
    }
  }
  const began = new Date();
  let errors = 0;
  for (const rate of RAMP) {
    const r = await autocannon({
      url: `${gateway.url}/${o.slug}/s/${service.name}/v1/completions`,
      // Enough connections that requests held during a cold start do not throttle the offered rate.
      connections: 400,
      duration: STEP_S,
      overallRate: rate,
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: '{"prompt":"hello"}',
      timeout: 70,
    });
    errors += r.errors + r.timeouts + r.non2xx;
  }
  const ended = new Date();
  await gateway.flush();
  stopped = true;
  await Promise.all(loops);
  await gateway.close();
  await host.close();

  const db = getDb();
  const t = await db.execute<{ at: string; requests: number; hist: number[] }>(sql`
    select at, requests, latency_buckets as hist from service_traffic
    where service_id = ${service.id} and at >= ${began} order by at`);
  const hist = t.rows.reduce<number[]>((acc, r) => r.hist.map((v, i) => v + (acc[i] ?? 0)), []);
  // The ideal follows the offered load (the ramp), not what was served.
  const ideal = RAMP.reduce((s, rate) => s + Math.ceil(rate / TARGET_RPS) * STEP_S, 0);
  const rep = await db.execute<{ first_ready: string | null; seconds: number }>(sql`
    select min(ready_at) filter (where ready_at >= ${began}) as first_ready,
      coalesce(sum(extract(epoch from least(coalesce(ended_at, ${ended}), ${ended}) - greatest(created_at, ${began}))), 0)::float8 as seconds
    from service_replicas where service_id = ${service.id}`);
  await db.execute(sql`update services set deleted_at = now() where id = ${service.id}`);
  const first = rep.rows[0]?.first_ready;
  return {
    firstReadyS: pinned ? 0 : first ? (new Date(first).getTime() - began.getTime()) / 1000 : null,
    p95Ms: quantile(hist, 0.95),
    replicaSeconds: Number(rep.rows[0]?.seconds ?? 0),
    idealReplicaSeconds: ideal,
    requests: t.rows.reduce((s, r) => s + r.requests, 0),
    errors,
  };
}

export const servicesBench: Benchmark = {
  name: "services",
  description:
    "a service ramped 0 → 300 req/s → back by autocannon through the gateway; baseline: pinned at max",
  async setup() {
    const fleet = await newFleet([{ gpus: 8 }, { gpus: 8 }]);
    const auto = await scenario(fleet.region, false);
    const pinned = await scenario(fleet.region, true);
    const f = (n: number | null, d = 1) => (n == null ? "—" : n.toFixed(d));
    return {
      variants: [],
      notes: [
        `ramp ${RAMP.join("→")} req/s, ${STEP_S} s per step; target ${TARGET_RPS} req/s per replica, max ${MAX}; cold start ${COLD_START_MS / 1000} s`,
        `autoscaled: first request → first ready replica ${f(auto.firstReadyS)} s; p95 ${f(auto.p95Ms, 0)} ms; ` +
          `replica-seconds ${f(auto.replicaSeconds, 0)} vs ideal ${auto.idealReplicaSeconds} (×${f(auto.replicaSeconds / Math.max(1, auto.idealReplicaSeconds), 2)}); ` +
          `${auto.requests} requests served, ${auto.errors} errors`,
        `pinned at ${MAX}: p95 ${f(pinned.p95Ms, 0)} ms; replica-seconds ${f(pinned.replicaSeconds, 0)}; ${pinned.requests} requests, ${pinned.errors} errors`,
        `autoscaling saved ${f(100 * (1 - auto.replicaSeconds / Math.max(1, pinned.replicaSeconds)), 0)} % of replica-seconds; ` +
          `latency paid: p95 ${f((auto.p95Ms ?? 0) - (pinned.p95Ms ?? 0), 0)} ms more (the cold start is in it)`,
      ],
    };
  },
};
