import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, instances, nodes } from "@/lib/db/schema";
import { checkCapacityInvariants } from "@/lib/provisioning";
import { newFleet, newOrg } from "./fixtures";

/** Each violation is written by hand into a region of its own and must be reported by its kind. */
async function scenario() {
  const fleet = await newFleet([{ gpus: 2, mig: [1] }, { gpus: 1 }]);
  const o = await newOrg("inv");
  const n0 = fleet.nodes[0] as (typeof fleet.nodes)[number];
  const n1 = fleet.nodes[1] as (typeof fleet.nodes)[number];
  const inst = async (
    state: "running" | "stopped",
    nodeId: string | null,
    gpuCount = 1,
    slicesPerGpu = 7,
  ) => {
    const now = new Date();
    const [row] = await getDb()
      .insert(instances)
      .values({
        orgId: o.org.id,
        projectId: o.project.id,
        name: `i-${randomUUID().slice(0, 6)}`,
        kind: "container",
        state,
        regionCode: fleet.region,
        instanceTypeId: slicesPerGpu === 7 ? "h100.1x" : "h100.mig-3g.40gb",
        gpuModelId: "h100",
        gpuCount,
        slicesPerGpu,
        pricingModel: "on_demand",
        imageId: "cuda-12.6-base",
        diskGib: 100,
        workload: "training",
        nodeId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row as typeof instances.$inferSelect;
  };
  // The database now refuses most of these itself (gpu_allocations_fit trigger, integrity.test.ts); the SQL
  // check stays as the operator's audit of a live database, so its tests write past the trigger on purpose.
  const alloc = (
    instanceId: string,
    nodeId: string,
    gpuId: string,
    slices: number,
    migProfile: string | null,
  ) =>
    getDb().transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx
        .insert(gpuAllocations)
        .values({ orgId: o.org.id, instanceId, nodeId, nodeGpuId: gpuId, slices, migProfile });
    });
  const kinds = async () =>
    new Set((await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).map((v) => v.kind));
  return { fleet, n0, n1, inst, alloc, kinds };
}

describe("checkCapacityInvariants", () => {
  it("is empty for a consistent fleet", async () => {
    const s = await scenario();
    const a = await s.inst("running", s.n0.id);
    await s.alloc(a.id, s.n0.id, s.n0.gpuIds[0] as string, 7, null);
    const m = await s.inst("running", s.n0.id, 1, 3);
    await s.alloc(m.id, s.n0.id, s.n0.gpuIds[1] as string, 3, "3g.40gb");
    expect([...(await s.kinds())]).toEqual([]);
  });

  it("reports a shared or over-allocated GPU", async () => {
    const s = await scenario();
    const a = await s.inst("running", s.n0.id);
    const b = await s.inst("running", s.n0.id, 1, 3);
    // A whole GPU and a slice on it: one whole-GPU row is all the unique index allows, the trigger is bypassed.
    await s.alloc(a.id, s.n0.id, s.n0.gpuIds[0] as string, 7, null);
    await s.alloc(b.id, s.n0.id, s.n0.gpuIds[0] as string, 3, "3g.40gb");
    const k = await s.kinds();
    expect(k).toContain("gpu_over_allocated");
    expect(k).toContain("whole_gpu_shared");
  });

  it("reports MIG on a whole GPU and whole on a MIG GPU", async () => {
    const s = await scenario();
    const m = await s.inst("running", s.n0.id, 1, 3);
    await s.alloc(m.id, s.n0.id, s.n0.gpuIds[0] as string, 3, "3g.40gb");
    const w = await s.inst("running", s.n0.id);
    await s.alloc(w.id, s.n0.id, s.n0.gpuIds[1] as string, 7, null);
    const k = await s.kinds();
    expect(k).toContain("mig_on_non_mig_gpu");
    expect(k).toContain("whole_on_mig_gpu");
  });

  it("reports allocations of a stopped instance, missing allocations, and node mismatches", async () => {
    const s = await scenario();
    const stopped = await s.inst("stopped", null);
    await s.alloc(stopped.id, s.n1.id, s.n1.gpuIds[0] as string, 7, null);
    await s.inst("running", s.n0.id, 2);
    const wrongNode = await s.inst("running", s.n1.id);
    await s.alloc(wrongNode.id, s.n0.id, s.n0.gpuIds[0] as string, 7, null);
    const k = await s.kinds();
    expect(k).toContain("allocation_without_live_instance");
    expect(k).toContain("allocation_count_mismatch");
    expect(k).toContain("allocation_node_mismatch");
  });

  it("reports live capacity on a node that is down", async () => {
    const s = await scenario();
    const a = await s.inst("running", s.n1.id);
    await s.alloc(a.id, s.n1.id, s.n1.gpuIds[0] as string, 7, null);
    await getDb().update(nodes).set({ status: "down" }).where(sql`${nodes.id} = ${s.n1.id}`);
    const k = await s.kinds();
    expect(k).toContain("allocation_on_down_node");
    expect(k).toContain("instance_node_mismatch");
  });
});
