import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { launch } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec } from "./fixtures";

/** The database's own answer to an insert: "ok" or the SQLSTATE it refused with. */
async function attempt(q: ReturnType<typeof sql>): Promise<string> {
  try {
    await getDb().execute(q);
    return "ok";
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return cause?.code ?? (err as { code?: string }).code ?? String(err);
  }
}

const alloc = (o: {
  orgId: string;
  nodeId: string;
  gpuId: string;
  slices: number;
  mig?: string | null;
  released?: boolean;
}) => sql`
  insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, mig_profile, released_at)
  values (${o.orgId}, ${randomUUID()}, ${o.nodeId}, ${o.gpuId}, ${o.slices}, ${o.mig ?? null},
          ${o.released ? new Date() : null})
  returning id`;

/** One node of `gpus` GPUs (those in `mig` in MIG mode) and a fresh organization. */
async function oneNode(label: string, gpus: number, mig?: number[]) {
  const fleet = await newFleet([{ gpus, mig }]);
  const o = await newOrg(label);
  const node = fleet.nodes[0];
  if (!node) throw new Error("no node");
  return { o, node };
}

// Issue 12 item 10: before, nothing but the placement lock stood between two allocations of one GPU.
describe("the database refuses a double booking", () => {
  it("refuses a second live whole-GPU allocation of one GPU, and a whole GPU over MIG slices", async () => {
    const { o, node } = await oneNode("dbl", 2, [1]);
    const [whole, mig] = node.gpuIds as [string, string];
    const base = { orgId: o.org.id, nodeId: node.id };
    expect(await attempt(alloc({ ...base, gpuId: whole, slices: 7 }))).toBe("ok");
    expect(await attempt(alloc({ ...base, gpuId: whole, slices: 7 }))).toBe("23P01");
    // MIG slices share a GPU up to its 7 slices, and not one more.
    expect(await attempt(alloc({ ...base, gpuId: mig, slices: 4, mig: "4g.40gb" }))).toBe("ok");
    expect(await attempt(alloc({ ...base, gpuId: mig, slices: 3, mig: "3g.40gb" }))).toBe("ok");
    expect(await attempt(alloc({ ...base, gpuId: mig, slices: 1, mig: "1g.10gb" }))).toBe("23P01");
    expect(await attempt(alloc({ ...base, gpuId: mig, slices: 7 }))).toBe("23P01");
    // A released allocation frees its GPU.
    await getDb().execute(sql`update gpu_allocations set released_at = now() where node_gpu_id = ${whole}`);
    expect(await attempt(alloc({ ...base, gpuId: whole, slices: 7 }))).toBe("ok");
  });

  it("refuses two allocations inserted in one statement that together overfill a GPU", async () => {
    const fleet = await newFleet([{ gpus: 1 }]);
    const o = await newOrg("dbl2");
    const node = fleet.nodes[0];
    const gpu = node?.gpuIds[0];
    if (!node || !gpu) throw new Error("no gpu");
    const r = await attempt(sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices)
      values (${o.org.id}, ${randomUUID()}, ${node.id}, ${gpu}, 7), (${o.org.id}, ${randomUUID()}, ${node.id}, ${gpu}, 7)`);
    expect(r).toBe("23P01");
  });

  // 0036: no unique index on live whole GPUs any more; the update's row trigger refuses a row brought back to
  // life, or moved, onto a GPU whose slices are taken.
  it("refuses an update that makes a second whole GPU live on one GPU, or moves a row onto a taken one", async () => {
    const { o, node } = await oneNode("dbl5", 2);
    const [taken, free] = node.gpuIds as [string, string];
    const base = { orgId: o.org.id, nodeId: node.id };
    expect(await attempt(alloc({ ...base, gpuId: taken, slices: 7 }))).toBe("ok");
    const back = await getDb().execute<{ id: number }>(
      alloc({ ...base, gpuId: taken, slices: 7, released: true }),
    );
    const released = back.rows[0]?.id;
    expect(await attempt(sql`update gpu_allocations set released_at = null where id = ${released}`)).toBe(
      "23P01",
    );
    expect(await attempt(alloc({ ...base, gpuId: free, slices: 7 }))).toBe("ok");
    expect(
      await attempt(sql`update gpu_allocations set node_gpu_id = ${taken} where node_gpu_id = ${free}`),
    ).toBe("23P01");
  });

  // 0020: node_id has no foreign key of its own; the statement trigger answers for every inserted row's node.
  it("refuses an allocation whose node is not its GPU's, or no node at all, released or live", async () => {
    const fleet = await newFleet([{ gpus: 1 }, { gpus: 1 }]);
    const o = await newOrg("dbl3");
    const [a, b] = fleet.nodes;
    const gpu = a?.gpuIds[0];
    if (!a || !b || !gpu) throw new Error("no gpu");
    const one = (nodeId: string, released: boolean) => sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, released_at)
      values (${o.org.id}, ${randomUUID()}, ${nodeId}, ${gpu}, 7, ${released ? new Date() : null})`;
    for (const released of [false, true]) {
      expect(await attempt(one(b.id, released))).toBe("23514");
      expect(await attempt(one(randomUUID(), released))).toBe("23514");
    }
    expect(await attempt(one(a.id, true))).toBe("ok");
  });

  // 0022: node_gpu_id has no foreign key either; a trigger on node_gpus keeps a referenced GPU (and its node).
  it("refuses to delete a GPU, or its node, while an allocation references it, released or live", async () => {
    const { o, node } = await oneNode("dbl4", 2);
    const [live, released] = node.gpuIds as [string, string];
    expect(await attempt(alloc({ orgId: o.org.id, nodeId: node.id, gpuId: live, slices: 7 }))).toBe("ok");
    expect(
      await attempt(alloc({ orgId: o.org.id, nodeId: node.id, gpuId: released, slices: 7, released: true })),
    ).toBe("ok");
    expect(await attempt(sql`delete from node_gpus where id = ${live}`)).toBe("23503");
    expect(await attempt(sql`delete from node_gpus where id = ${released}`)).toBe("23503");
    expect(await attempt(sql`delete from nodes where id = ${node.id}`)).toBe("23503");
    await getDb().execute(sql`delete from gpu_allocations where node_id = ${node.id}`);
    expect(await attempt(sql`delete from node_gpus where id = ${released}`)).toBe("ok");
  });
});

describe("isolation of the lock-then-count transactions", () => {
  it("refuses to count quota inside a REPEATABLE READ transaction", async () => {
    const fleet = await newFleet([{ gpus: 1 }]);
    const o = await newOrg("iso");
    const err = await getDb()
      .transaction(
        async (tx) => {
          await launch({ ...o.ctx, tx }, o.slug, notebookSpec(fleet.region));
        },
        { isolationLevel: "repeatable read" },
      )
      .catch((e: unknown) => e);
    expect(String(err)).toMatch(/READ COMMITTED/);
  });
});

// Issue 12 item 15: the audit log was append-only by convention only.
describe("the audit log is append-only in the database", () => {
  it("refuses UPDATE, DELETE and TRUNCATE", async () => {
    const o = await newOrg("audit");
    await getDb().execute(
      sql`insert into audit_log (org_id, actor_kind, action) values (${o.org.id}, 'system', 'test.row')`,
    );
    expect(await attempt(sql`update audit_log set action = 'x' where org_id = ${o.org.id}`)).toBe("42501");
    expect(await attempt(sql`delete from audit_log where org_id = ${o.org.id}`)).toBe("42501");
    expect(await attempt(sql`truncate audit_log`)).toBe("42501");
    const rows = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where org_id = ${o.org.id} and action = 'test.row'`,
    );
    expect(rows.rows[0]?.n).toBe(1);
  });
});
