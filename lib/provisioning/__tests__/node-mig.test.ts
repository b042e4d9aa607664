import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getNode } from "@/lib/admin";
import { ForbiddenError, InvalidStateError, NotFoundError, systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  setNodeMigLayout,
  setProvider,
} from "@/lib/provisioning";
import { makeUser } from "../../admin/__tests__/fixtures";
import { newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

async function setup(model = "h100") {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 2, model }]);
  const nodeId = (fleet.nodes[0] as { id: string }).id;
  const op = { ...(await makeUser(getDb(), { isOperator: true, label: "migop" })).ctx, now: clock.now };
  const o = await newOrg("migorg", clock);
  const layout = async () => (await getNode(op, nodeId)).gpus.map((g) => g.migEnabled);
  const audits = async () =>
    (
      await getDb().execute<{ data: { before: number[]; after: number[] } }>(
        sql`select data from audit_log where target_id = ${nodeId} and action = 'node.mig_layout_changed'`,
      )
    ).rows.map((r) => r.data);
  const place = () =>
    placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
  return { clock, fleet, nodeId, op, o, layout, audits, place };
}

describe("changing the MIG layout of an idle node", () => {
  it("re-partitions the GPUs, and the scheduler then places MIG slices on the new layout", async () => {
    const { fleet, nodeId, op, o, layout, audits, place } = await setup();
    const r = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.mig-1g.10gb" }));
    await place();
    // No GPU in MIG mode yet: the slice waits.
    const state = async () =>
      (await getDb().execute<{ state: string }>(sql`select state from instances where id = ${r.instance.id}`))
        .rows[0]?.state;
    expect(await state()).toBe("queued");

    expect(await setNodeMigLayout(op, nodeId, { migGpus: ["1"] })).toEqual({ nodeId, migGpus: [1] });
    expect(await layout()).toEqual([false, true]);
    expect(await audits()).toEqual([
      { name: fleet.nodes[0]?.name, region: fleet.region, before: [], after: [1] },
    ]);
    await place();
    expect(await state()).toBe("provisioning");
    const detail = await getNode(op, nodeId);
    expect(detail.gpus[1]?.holders.map((h) => h.instanceId)).toEqual([r.instance.id]);
  });

  it("is refused while anything holds GPUs on the node, with the count, and changes nothing", async () => {
    const { fleet, nodeId, op, o, layout, audits, place } = await setup();
    await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await place();
    const err = await setNodeMigLayout(op, nodeId, { migGpus: [0, 1] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidStateError);
    expect((err as InvalidStateError).reason).toBe("node_busy");
    expect((err as InvalidStateError).params).toMatchObject({ instances: 1 });
    expect(await layout()).toEqual([false, false]);
    expect(await audits()).toEqual([]);
  });

  it("refuses anyone but an operator, GPUs the node lacks, a model without MIG and an unknown node", async () => {
    const { nodeId, op, o, layout, audits } = await setup();
    await expect(setNodeMigLayout(o.ctx, nodeId, { migGpus: [0] })).rejects.toBeInstanceOf(ForbiddenError);
    const field = async (id: string, raw: unknown) => {
      const e = await setNodeMigLayout(op, id, raw).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      return Object.keys((e as ValidationError).fieldErrors);
    };
    expect(await field(nodeId, { migGpus: [2] })).toEqual(["migGpus"]);
    expect(await field(nodeId, { migGpus: ["x"] })).toEqual(["migGpus"]);
    await expect(setNodeMigLayout(op, randomUUID(), { migGpus: [] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(setNodeMigLayout(op, "nope", { migGpus: [] })).rejects.toBeInstanceOf(NotFoundError);
    expect(await layout()).toEqual([false, false]);
    expect(await audits()).toEqual([]);
    const l4 = await setup("l4");
    expect(await field(l4.nodeId, { migGpus: [0] })).toEqual(["migGpus"]);
    // Back to whole GPUs is always allowed on an idle node.
    expect(await setNodeMigLayout(l4.op, l4.nodeId, {})).toEqual({ nodeId: l4.nodeId, migGpus: [] });
  });
});
