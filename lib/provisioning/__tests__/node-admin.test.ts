import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getNode, listNodes } from "@/lib/admin";
import { ForbiddenError, NotFoundError, systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  addNode,
  createFixedProvider,
  drainNode,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import { makeUser } from "../../admin/__tests__/fixtures";
import { newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

const counts = async (region: string) =>
  (
    await getDb().execute<{ nodes: number; gpus: number; audits: number }>(sql`
      select (select count(*)::int from nodes where region_code = ${region}) as nodes,
        (select count(*)::int from node_gpus g join nodes n on n.id = g.node_id where n.region_code = ${region}) as gpus,
        (select count(*)::int from audit_log where action = 'node.added' and data->>'region' = ${region}) as audits`)
  ).rows[0];

async function setup() {
  const fleet = await newFleet([]);
  const op = await makeUser(getDb(), { isOperator: true, label: "fleetop" });
  const spec = (over: Record<string, unknown> = {}) => ({
    name: `n-${randomUUID().slice(0, 8)}`,
    regionCode: fleet.region,
    gpuModelId: "h100",
    gpuCount: "4",
    vcpus: "64",
    ramGib: "512",
    migGpus: "1",
    ...over,
  });
  return { fleet, op: op.ctx, spec };
}

describe("operators add nodes", () => {
  it("adds the node, its GPUs (the first N in MIG mode) and the audit row together", async () => {
    const { fleet, op, spec } = await setup();
    const added = await addNode(op, spec());
    expect(added).toMatchObject({ gpuCount: 4, migGpus: 1, status: "active" });
    expect(await counts(fleet.region)).toEqual({ nodes: 1, gpus: 4, audits: 1 });
    const [row] = await listNodes(op, { region: fleet.region });
    expect(row).toMatchObject({ id: added.id, gpuCount: 4, migGpus: 1, gpusAllocated: 0, instances: 0 });
    const detail = await getNode(op, added.id);
    expect(detail.gpus.map((g) => g.migEnabled)).toEqual([true, false, false, false]);
    expect(detail.migProfiles.length).toBeGreaterThan(0);
  });

  it("refuses anyone but an operator, a taken name and bad input, writing nothing", async () => {
    const { fleet, op, spec } = await setup();
    const o = await newOrg("notop");
    await expect(addNode(o.ctx, spec())).rejects.toBeInstanceOf(ForbiddenError);
    const first = spec();
    await addNode(op, first);
    const refused = async (over: Record<string, unknown>, field: string) => {
      const err = await addNode(op, spec(over)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    };
    // A taken name is told at the name field, like a cohort's (issue 8's input audit), not as a 409.
    await refused({ name: first.name }, "name");
    await refused({ migGpus: "5" }, "migGpus");
    await refused({ gpuModelId: "l4", migGpus: "1" }, "migGpus");
    await refused({ regionCode: "nowhere-1" }, "regionCode");
    await refused({ gpuModelId: "nope" }, "gpuModelId");
    await refused({ name: "Bad Name" }, "name");
    await refused({ gpuCount: "0" }, "gpuCount");
    expect(await counts(fleet.region)).toEqual({ nodes: 1, gpus: 4, audits: 1 });
  });

  it("lists and shows nodes only to operators; an unknown id is NotFound", async () => {
    const { op } = await setup();
    const o = await newOrg("peek");
    await expect(listNodes(o.ctx)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getNode(op, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(getNode(op, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
    await expect(drainNode(op, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("drain with a reason", () => {
  it("keeps the operator's reason in the audit row and shows the noticed instance on the node page", async () => {
    const clock = testClock();
    const fleet = await newFleet([{ gpus: 2 }]);
    const o = await newOrg("drainr", clock);
    const op = { ...(await makeUser(getDb(), { isOperator: true, label: "drainop" })).ctx, now: clock.now };
    const r = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    clock.advance(11_000);
    await reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: fleet.region });
    const nodeId = (fleet.nodes[0] as { id: string }).id;
    await expect(drainNode(op, nodeId, { reason: "x".repeat(501) })).rejects.toBeInstanceOf(ValidationError);
    const res = await drainNode(op, nodeId, { reason: "Firmware upgrade" });
    expect(res.noticedInstances).toBe(1);
    const audit = await getDb().execute<{ data: Record<string, unknown> }>(
      sql`select data from audit_log where target_id = ${nodeId} and action = 'node.drained'`,
    );
    expect(audit.rows.map((a) => a.data.reason)).toEqual(["Firmware upgrade"]);
    const detail = await getNode(op, nodeId);
    expect(detail.status).toBe("draining");
    expect(detail.running).toMatchObject([{ id: r.instance.id, state: "preempting", orgSlug: o.slug }]);
    expect(detail.gpus.flatMap((g) => g.holders.map((h) => h.instanceId))).toContain(r.instance.id);
  });
});
