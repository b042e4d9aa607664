import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { setCheckpointHook, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  createFixedProvider,
  launch,
  loadRegionHolders,
  loadRegionNodes,
  placeQueuedInstances,
  setProvider,
} from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() =>
  setProvider(createFixedProvider({ provisionMs: 30_000, stopMs: 10_000, terminateMs: 5_000 })),
);

/** Each GPU's live slices counted from gpu_allocations: what loadRegionNodes must report. */
async function counted(region: string): Promise<Record<string, number>> {
  const res = await getDb().execute<{ gpu_id: string; used: number }>(sql`
    select g.id as gpu_id, coalesce(sum(a.slices) filter (where a.released_at is null), 0)::int as used
    from node_gpus g join nodes n on n.id = g.node_id
    left join gpu_allocations a on a.node_gpu_id = g.id
    where n.region_code = ${region} group by g.id`);
  return Object.fromEntries(res.rows.map((r) => [r.gpu_id, r.used]));
}

async function reported(region: string, now: Date): Promise<Record<string, number>> {
  const db = getDb();
  const nodes = await loadRegionNodes(db, region, loadRegionHolders(db, region, now));
  return Object.fromEntries(nodes.flatMap((n) => n.gpus.map((g) => [g.id, g.used])));
}

async function setup(specs: Parameters<typeof newFleet>[0]) {
  const fleet = await newFleet(specs);
  const clock = testClock();
  const o = await newOrg("fleet-state", clock);
  await bigQuota(o.org.id, fleet.region);
  const sys = systemCtx("scheduler", { now: clock.now });
  const up = async (over: Record<string, unknown> = {}) =>
    (await launch(o.ctx, o.slug, notebookSpec(fleet.region, over))).instance.id;
  return { fleet, clock, o, sys, up };
}

describe("loadRegionNodes", () => {
  it("reports each GPU's use from the holders, whole GPUs and MIG slices alike", async () => {
    const s = await setup([{ gpus: 4, mig: [3] }, { gpus: 2 }]);
    await s.up({ instanceType: "h100.2x" });
    await s.up({ instanceType: "h100.mig-3g.40gb" });
    await s.up({ instanceType: "h100.mig-2g.20gb" });
    await placeQueuedInstances(s.sys, { regionCode: s.fleet.region });
    const want = await counted(s.fleet.region);
    expect(Object.values(want).reduce((a, b) => a + b, 0)).toBe(2 * 7 + 3 + 2);
    expect(await reported(s.fleet.region, s.clock.now())).toEqual(want);
  });

  it("counts from gpu_allocations a node whose use no holder accounts for", async () => {
    const s = await setup([{ gpus: 2, mig: [1] }, { gpus: 2 }]);
    // Allocations of an instance that holds no capacity (still queued): no holder names them, and node_capacity
    // (kept by the allocation triggers) disagrees with the holders' figures for both nodes of this region.
    const orphan = await s.up();
    const [n0, n1] = s.fleet.nodes;
    if (!n0 || !n1) throw new Error("fleet");
    await getDb().execute(sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices)
      values (${s.o.org.id}, ${orphan}, ${n0.id}, ${n0.gpuIds[1]}, 3),
             (${s.o.org.id}, ${orphan}, ${n1.id}, ${n1.gpuIds[0]}, 7)`);
    const got = await reported(s.fleet.region, s.clock.now());
    expect(got[n0.gpuIds[1] as string]).toBe(3);
    expect(got[n1.gpuIds[0] as string]).toBe(7);
    expect(got).toEqual(await counted(s.fleet.region));
    // And the scheduler does not place on them: a whole GPU is left on n0 and n1 each, not two on n1.
    const two = await s.up({ instanceType: "h100.2x" });
    await placeQueuedInstances(s.sys, { regionCode: s.fleet.region });
    const st = await getDb().execute<{ state: string }>(sql`select state from instances where id = ${two}`);
    expect(st.rows[0]?.state).toBe("queued");
  });
});

describe("placeQueuedInstances", () => {
  it("fails the tick, rather than book GPUs, when a placed instance did not move", async () => {
    const s = await setup([{ gpus: 8 }]);
    const a = await s.up({ instanceType: "h100.4x" });
    const b = await s.up({ instanceType: "h100.4x" });
    const db = getDb();
    let err: unknown = null;
    await db
      .transaction(async (tx) => {
        // After the tick read its queue (FOR UPDATE), b leaves it in the same transaction: something only the
        // tick's own transaction can do while it holds the rows.
        setCheckpointHook(async (name) => {
          if (name === "scheduler.gated")
            await tx.execute(sql`update instances set state = 'terminated' where id = ${b}`);
        });
        try {
          await placeQueuedInstances({ ...s.sys, tx }, { regionCode: s.fleet.region });
        } catch (e) {
          err = e;
        } finally {
          setCheckpointHook(null);
        }
        // The error is what rolls the tick's transaction back; here the test's own rollback stands for it.
        throw new Error("rollback");
      })
      .catch((e) => {
        if ((e as Error).message !== "rollback") throw e;
      });
    expect(String(err)).toMatch(/1 placed instances did not move/);
    const left = await db.execute<{ state: string }>(
      sql`select state from instances where id = any(${`{${a},${b}}`}::uuid[]) order by state`,
    );
    expect(left.rows.map((r) => r.state)).toEqual(["queued", "queued"]);
  });
});
