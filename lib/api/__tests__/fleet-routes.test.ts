import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as auditCsv } from "@/app/api/v1/admin/audit/export/route";
import { POST as drain } from "@/app/api/v1/admin/nodes/[id]/drain/route";
import { POST as addNode, GET as listNodes } from "@/app/api/v1/admin/nodes/route";
import type { UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { call, expectProblem, postJson } from "./support";

// The console's session (admin-scope tokens are tested in admin-tokens.test.ts).
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));
const console_ = { cookie: "next-auth.session-token=t", host: "forja.test", origin: "http://forja.test" };

const nodesIn = async (region: string) =>
  Number(
    (
      await getDb().execute<{ n: number }>(
        sql`select count(*)::int as n from nodes where region_code = ${region}`,
      )
    ).rows[0]?.n,
  );

describe("fleet API (operators)", () => {
  it("adds, lists and drains nodes with problem+json refusals that write nothing; exports the audit log", async () => {
    const fleet = await newFleet([]);
    const o = await newOrg("fleetapi");
    session.actor = o.actor as UserActor;
    const name = `api-${randomUUID().slice(0, 8)}`;
    const node = { name, regionCode: fleet.region, gpuModelId: "h100", gpuCount: 2, vcpus: 32, ramGib: 256 };
    await expectProblem(await postJson(addNode, "/admin/nodes", {}, node, { headers: console_ }), 403);
    await expectProblem(await call(listNodes, "/admin/nodes", {}, { headers: console_ }), 403);

    session.actor = { ...(o.actor as UserActor), isOperator: true };
    const bad = await postJson(
      addNode,
      "/admin/nodes",
      {},
      { ...node, gpuCount: 0, migGpus: 9 },
      { headers: console_ },
    );
    const problem = await expectProblem(bad, 422);
    expect(Object.keys(problem.errors as object).sort()).toEqual(["gpuCount", "migGpus"]);
    expect(await nodesIn(fleet.region)).toBe(0);

    const added = await postJson(addNode, "/admin/nodes", {}, { ...node, migGpus: 1 }, { headers: console_ });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    const taken = await expectProblem(
      await postJson(addNode, "/admin/nodes", {}, node, { headers: console_ }),
      422,
    );
    expect(taken.errors).toEqual({ name: ["A node with this name already exists: choose another name"] });
    expect(await nodesIn(fleet.region)).toBe(1);

    const listed = await call(listNodes, `/admin/nodes?region=${fleet.region}`, {}, { headers: console_ });
    expect(await listed.json()).toMatchObject({ items: [{ id, name, gpuCount: 2, migGpus: 1 }], next: null });

    await expectProblem(
      await postJson(
        drain,
        `/admin/nodes/${id}/drain`,
        { id },
        { reason: "x".repeat(501) },
        { headers: console_ },
      ),
      422,
    );
    const drained = await postJson(
      drain,
      `/admin/nodes/${id}/drain`,
      { id },
      { reason: "Rack move" },
      { headers: console_ },
    );
    expect(await drained.json()).toMatchObject({ nodeId: id, status: "draining" });

    const csv = await call(auditCsv, "/admin/audit/export?action=node.drained", {}, { headers: console_ });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,at,organization,actor,actor_kind,action,target_type,target_id,data");
    expect(lines.find((l) => l.includes(id))).toContain("Rack move");
    expect(lines.slice(1).every((l) => l.includes(",node.drained,"))).toBe(true);
    session.actor = o.actor as UserActor;
    await expectProblem(await call(auditCsv, "/admin/audit/export", {}, { headers: console_ }), 403);
  });
});
