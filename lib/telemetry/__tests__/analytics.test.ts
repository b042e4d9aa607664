import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ForbiddenError, type UserActor, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { expectedWaits, fleetCapacitySeries, queueWaitSeries } from "@/lib/telemetry";
import { insertInstance, newRegion, tenantWithCatalog } from "./fixtures";

const MIN = 60_000;
const H = 60 * MIN;
const T = new Date("2031-07-01T12:00:00Z");

type Ev = { to: string; at: number };

async function withEvents(
  tenant: Awaited<ReturnType<typeof tenantWithCatalog>>,
  region: string,
  state: "running" | "queued" | "cancelled",
  events: Ev[],
  gpuCount = 1,
) {
  const first = events[0]?.at ?? T.getTime();
  const inst = await insertInstance(tenant, {
    state,
    regionCode: region,
    instanceTypeId: gpuCount === 1 ? "h100.1x" : `h100.${gpuCount}x`,
    gpuCount,
    createdAt: new Date(first),
    queuedAt: new Date(events.filter((e) => e.to === "queued").at(-1)?.at ?? first),
  });
  let from: string | null = null;
  for (const e of events) {
    await getDb().execute(sql`
      insert into instance_events (org_id, instance_id, from_state, to_state, reason, actor_kind, at)
      values (${tenant.org.id}, ${inst.id}, ${from}::instance_state, ${e.to}::instance_state, 'test', 'system',
              ${new Date(e.at)})`);
    from = e.to;
  }
  return inst;
}

/** queued at `start`, placed `waitS` seconds later. */
const waited = (start: number, waitS: number): Ev[] => [
  { to: "requested", at: start - 1000 },
  { to: "queued", at: start },
  { to: "provisioning", at: start + waitS * 1000 },
  { to: "running", at: start + waitS * 1000 + 30_000 },
];

describe("queueWaitSeries", () => {
  it("computes wait p50/p95 per bucket in SQL (percentile_cont) and the current queue depth", async () => {
    const tenant = await tenantWithCatalog("queue");
    const { code } = await newRegion([{ gpus: 8, createdAt: new Date(T.getTime() - 40 * H) }]);
    // Bucket [T-3h, T-2h): waits 10, 20, 30, 40, 100 s. Sorted, p50 = 30; p95 = 40 + 0.8 × (100 − 40) = 88.
    for (const w of [40, 10, 100, 30, 20])
      await withEvents(tenant, code, "running", waited(T.getTime() - 3 * H + 60_000, w));
    // Bucket [T-1h, T): one wait of 600 s, and a second wait of the same instance after a restart (120 s).
    await withEvents(tenant, code, "running", [
      ...waited(T.getTime() - 2 * H + 60_000, 600),
      { to: "stopping", at: T.getTime() - 50 * MIN },
      { to: "stopped", at: T.getTime() - 49 * MIN },
      { to: "queued", at: T.getTime() - 40 * MIN },
      { to: "provisioning", at: T.getTime() - 38 * MIN },
      { to: "running", at: T.getTime() - 37 * MIN },
    ]);
    // A cancelled request never waited to the end; queued ones count in the depth, not the percentiles.
    await withEvents(tenant, code, "cancelled", [
      { to: "requested", at: T.getTime() - 90 * MIN },
      { to: "queued", at: T.getTime() - 90 * MIN },
      { to: "cancelled", at: T.getTime() - 80 * MIN },
    ]);
    await withEvents(tenant, code, "queued", [{ to: "queued", at: T.getTime() - 20 * MIN }], 4);
    await withEvents(tenant, code, "queued", [{ to: "queued", at: T.getTime() - 5 * MIN }], 1);

    const s = await queueWaitSeries(tenant.ctx, { regionCode: code, range: "6h", now: T });
    const at = (ms: number) => s.points.find((p) => p.t === ms);
    expect(s.binSeconds).toBe(900);
    const bucketA = at(T.getTime() - 3 * H); // waits end between T-3h+70s and T-3h+160s: one 15-min bucket
    expect(bucketA).toEqual({ t: T.getTime() - 3 * H, count: 5, p50Seconds: 30, p95Seconds: 88 });
    // Queued at T-2h+1min, placed 600 s later: ends in the bucket starting at T-2h.
    expect(at(T.getTime() - 2 * H)).toMatchObject({ count: 1, p50Seconds: 600, p95Seconds: 600 });
    expect(at(T.getTime() - 45 * MIN)).toMatchObject({ count: 1, p50Seconds: 120, p95Seconds: 120 });
    expect(s.points.reduce((a, p) => a + p.count, 0)).toBe(7);
    expect(s.points.filter((p) => p.count === 0).every((p) => p.p50Seconds === null)).toBe(true);
    expect(s.depth).toEqual([
      { regionCode: code, gpuModelId: "h100", queued: 2, gpusQueued: 5, oldestWaitSeconds: 20 * 60 },
    ]);

    const waits = (await expectedWaits(tenant.ctx, { now: T, windowHours: 6 })).find(
      (w) => w.regionCode === code,
    );
    expect(waits).toMatchObject({ gpuModelId: "h100", waits: 7, p50Seconds: 40 });

    const none = await queueWaitSeries(tenant.ctx, {
      regionCode: code,
      gpuModelId: "a10",
      range: "24h",
      now: T,
    });
    expect(none.points.every((p) => p.count === 0)).toBe(true);
    expect(none.depth).toEqual([]);
    await expect(queueWaitSeries(tenant.ctx, { range: "1y" as "7d" })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe("fleetCapacitySeries", () => {
  it("gives capacity vs. time-weighted used GPUs per region × model, for operators only", async () => {
    const tenant = await tenantWithCatalog("fleet");
    const { code, nodes } = await newRegion([
      { gpus: 8, createdAt: new Date(T.getTime() - 48 * H) },
      { gpus: 8, createdAt: new Date(T.getTime() - 2 * H) }, // added to the fleet two hours ago
    ]);
    const n0 = nodes[0] as { id: string; gpuIds: string[] };
    const inst = await insertInstance(tenant, { regionCode: code, createdAt: new Date(T.getTime() - 5 * H) });
    // Eight whole GPUs from T-4h to T-2h30; a 2-slice MIG from T-1h onwards.
    await getDb().execute(sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, allocated_at, released_at)
      select ${tenant.org.id}, ${inst.id}, ${n0.id}, g, 7, ${new Date(T.getTime() - 4 * H)},
             ${new Date(T.getTime() - 150 * MIN)}
      from unnest(${`{${n0.gpuIds.join(",")}}`}::uuid[]) as g`);
    await getDb().execute(sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, mig_profile, allocated_at)
      values (${tenant.org.id}, ${inst.id}, ${n0.id}, ${n0.gpuIds[0]}, 2, '2g.20gb', ${new Date(T.getTime() - H)})`);

    const operator: UserActor = { ...(tenant.actor as UserActor), isOperator: true };
    const res = await fleetCapacitySeries({ actor: operator }, { range: "6h", now: T });
    const series = res.series.find((s) => s.regionCode === code && s.gpuModelId === "h100");
    if (!series) throw new Error("no series for the test region");
    const at = (msBefore: number) => series.points.find((p) => p.t === T.getTime() - msBefore);
    expect(series.points).toHaveLength(24);
    expect(at(4 * H)).toEqual({ t: T.getTime() - 4 * H, capacityGpus: 8, usedGpus: 8 });
    expect(at(150 * MIN + 15 * MIN)?.usedGpus).toBe(8);
    expect(at(150 * MIN)?.usedGpus).toBe(0);
    expect(at(5 * H)?.usedGpus).toBe(0);
    expect(at(2 * H)?.capacityGpus).toBe(16);
    expect(at(H)?.usedGpus).toBeCloseTo(2 / 7, 2);
    expect(at(15 * MIN)?.usedGpus).toBeCloseTo(2 / 7, 2);

    await expect(fleetCapacitySeries(tenant.ctx, { range: "6h", now: T })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
