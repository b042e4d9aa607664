import "server-only";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceTraffic } from "@/lib/db/schema";
import { createService } from "./create";
import { bucketOf, emptyHistogram } from "./histogram";
import type { Service } from "./types";

/** Where the demo's service runs: a small GPU in a region of the demo catalog that the default quotas allow. */
export const DEMO_SERVICE = {
  name: "chat-demo",
  project: "inference-prod",
  image: "pytorch-2.5-cuda12.4",
  instanceType: "l4.1x",
  region: "eu-fi-hel1",
} as const;

const MINUTE = 60_000;
/** One row per 30 s: the 1 h chart's step, so its picture has no gaps between rows. */
const ROW_MS = 30_000;

/** A day of chat traffic in requests per second: a quiet night, a working-day peak, a little deterministic noise. */
export function demoRps(at: Date): number {
  const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
  const day = Math.max(0, Math.sin(((hour - 6) / 16) * Math.PI));
  const noise = Math.sin(at.getTime() / 397_000) * 0.6 + Math.sin(at.getTime() / 1_130_000) * 0.4;
  return Math.max(0.2, 2 + 28 * day + 3 * noise);
}

/**
 * The demo organization's inference service: created through createService like any (min 1 replica, so the
 * worker's autoscaler launches a real replica on the first start), with `hours` of gateway traffic history
 * before `now` written as the gateway writes it (per-interval requests, status classes, latency histogram,
 * mean concurrency), one row per 30 s. The history stops 5 minutes before `now`, outside the autoscaler's
 * windows, so the replica count is decided by live traffic only.
 */
export async function seedDemoService(
  ctx: Ctx,
  orgSlug: string,
  opts: { now?: Date; hours?: number } = {},
): Promise<Service> {
  const now = opts.now ?? new Date();
  const { service } = await createService(ctx, orgSlug, {
    ...DEMO_SERVICE,
    minReplicas: 1,
    maxReplicas: 4,
    metric: "rps",
    target: 10,
    auth: "public",
  });
  const end = Math.floor(now.getTime() / MINUTE) * MINUTE - 5 * MINUTE;
  const count = ((opts.hours ?? 24) * 3_600_000) / ROW_MS;
  const rows: Array<typeof serviceTraffic.$inferInsert> = [];
  for (let k = count; k > 0; k--) {
    const at = new Date(end - k * ROW_MS);
    const rps = demoRps(at);
    const requests = Math.round((rps * ROW_MS) / 1000);
    // Latency grows with load (a model server batching more), spread over a few buckets around it.
    const typical = 120 + rps * 6;
    const hist = emptyHistogram();
    const spread: Array<[number, number]> = [
      [0.6, 0.5],
      [0.9, 0.3],
      [1.4, 0.15],
      [2.5, 0.05],
    ];
    let left = requests;
    for (const [factor, share] of spread) {
      const n = Math.min(left, Math.round(requests * share));
      const b = bucketOf(typical * factor);
      hist[b] = (hist[b] ?? 0) + n;
      left -= n;
    }
    hist[bucketOf(typical)] = (hist[bucketOf(typical)] ?? 0) + left;
    const errors = Math.floor(requests / 500);
    rows.push({
      orgId: service.orgId,
      serviceId: service.id,
      gateway: "demo-history",
      at,
      requests,
      status2xx: requests - errors,
      status4xx: 0,
      status5xx: errors,
      holdTimeouts: 0,
      held: 0,
      concurrency: (rps * typical) / 1000,
      queued: 0,
      latencyBuckets: hist,
    });
  }
  const db = ctx.tx ?? getDb();
  for (let i = 0; i < rows.length; i += 500) await db.insert(serviceTraffic).values(rows.slice(i, i + 500));
  return service;
}
