import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  checkCapacityInvariants,
  createFixedProvider,
  drainNode,
  failNode,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  SPOT_NOTICE_MS,
  setProvider,
} from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

async function state(id: string) {
  const r = await getDb().execute<{ state: string; state_deadline: Date | null; node_id: string | null }>(
    sql`select state, state_deadline, node_id from instances where id = ${id}`,
  );
  return r.rows[0];
}

/** Two running instances on the fleet's first node: one with auto-recover, one without. */
async function twoRunning() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 2 }, { gpus: 2 }]);
  const o = await newOrg("nodeops", clock);
  await bigQuota(o.org.id, fleet.region);
  const sched = systemCtx("scheduler", { now: clock.now });
  const prov = systemCtx("provider", { now: clock.now });
  const op = systemCtx("ops", { now: clock.now });
  const tick = () => placeQueuedInstances(sched, { regionCode: fleet.region });
  const reconcile = () => reconcileInstances(prov, { regionCode: fleet.region });
  const rec = (await launch(o.ctx, o.slug, notebookSpec(fleet.region, { autoRecover: true }))).instance.id;
  const plain = (await launch(o.ctx, o.slug, notebookSpec(fleet.region))).instance.id;
  await tick();
  clock.advance(11_000);
  await reconcile();
  const node = (await state(rec))?.node_id as string;
  expect((await state(plain))?.node_id).toBe(node);
  expect((await state(rec))?.state).toBe("running");
  return { clock, fleet, o, op, tick, reconcile, rec, plain, node };
}

describe("operator node operations", () => {
  it("drain: running instances get a notice, then auto-recover requeues and the rest stay preempted", async () => {
    const s = await twoRunning();
    const res = await drainNode(s.op, s.node);
    expect(res.noticedInstances).toBe(2);
    for (const id of [s.rec, s.plain]) {
      const r = await state(id);
      expect(r?.state).toBe("preempting");
      expect(new Date(r?.state_deadline as Date).getTime()).toBe(s.clock.now().getTime() + SPOT_NOTICE_MS);
    }
    const ev = await getDb().execute<{ reason_code: string }>(
      sql`select reason_code from instance_events where instance_id = ${s.plain} and to_state = 'preempting'`,
    );
    expect(ev.rows[0]?.reason_code).toBe("node_drained");
    s.clock.advance(SPOT_NOTICE_MS + 1_000);
    await s.reconcile();
    expect((await state(s.rec))?.state).toBe("queued");
    expect((await state(s.plain))?.state).toBe("preempted");
    // Requeued work is never placed back on the drained node.
    await s.tick();
    const again = await state(s.rec);
    expect(again?.state).toBe("provisioning");
    expect(again?.node_id).not.toBe(s.node);
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });

  it("fail: instances fail, except running ones with auto-recover, which are requeued", async () => {
    const s = await twoRunning();
    const res = await failNode(s.op, s.node);
    expect(res.failedInstances).toBe(1);
    expect((await state(s.plain))?.state).toBe("failed");
    expect(await state(s.rec)).toMatchObject({ state: "queued", node_id: null });
    expect(await checkCapacityInvariants(getDb(), { regionCode: s.fleet.region })).toEqual([]);
  });
});
