import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as capacityPlan } from "@/app/api/v1/admin/capacity-plan/route";
import { DELETE as removeMember } from "@/app/api/v1/admin/cohort-members/[orgId]/route";
import { PUT as putMember } from "@/app/api/v1/admin/cohort-members/route";
import { POST as activate } from "@/app/api/v1/admin/nodes/[id]/activate/route";
import { GET as listDefaults, PUT as putDefault } from "@/app/api/v1/admin/quota-defaults/route";
import type { UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { cohortMembers, nodes } from "@/lib/db/schema";
import { drainNode } from "@/lib/provisioning";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createCohort } from "@/lib/quotas";
import { allPages, call, expectProblem, postJson } from "./support";

// The console's session (admin-scope tokens are tested in admin-tokens.test.ts).
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));
const console_ = { cookie: "next-auth.session-token=t", host: "forja.test", origin: "http://forja.test" };
const putJson = <P>(handler: Parameters<typeof call<P>>[0], path: string, params: P, body: unknown) =>
  call(handler, path, params, {
    method: "PUT",
    headers: { ...console_, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function setup(prefix: string) {
  const fleet = await newFleet([{ gpus: 2 }]);
  const o = await newOrg(prefix);
  const op = { ...(o.actor as UserActor), isOperator: true };
  return { fleet, o, op, owner: o.actor as UserActor };
}

describe("operators' API: quota defaults, cohort members, node activation, capacity plan (issue 8)", () => {
  it("sets and lists a quota default; a bad one and a non-operator's write nothing", async () => {
    const { fleet, op, owner } = await setup("opdef");
    const k = { gpuModelId: "h100", regionCode: fleet.region };
    const saved = async () =>
      (
        await allPages<
          { gpuModelId: string; regionCode: string; nominalGpus: number },
          Record<string, never>
        >(listDefaults, `/admin/quota-defaults?limit=100&region=${fleet.region}`, {}, { headers: console_ })
      ).find((r) => r.regionCode === fleet.region);

    session.actor = owner;
    await expectProblem(
      await putJson(putDefault, "/admin/quota-defaults", {}, { ...k, nominalGpus: 3, borrowingLimitGpus: 1 }),
      403,
    );
    await expectProblem(await call(listDefaults, "/admin/quota-defaults", {}, { headers: console_ }), 403);

    session.actor = op;
    expect(await saved()).toBeUndefined();
    const bad = await expectProblem(
      await putJson(
        putDefault,
        "/admin/quota-defaults",
        {},
        { ...k, nominalGpus: 2, borrowingLimitGpus: 0, lendingLimitGpus: 5 },
      ),
      422,
    );
    expect(Object.keys(bad.errors as object)).toEqual(["lendingLimitGpus"]);
    expect(await saved()).toBeUndefined();

    const ok = await putJson(
      putDefault,
      "/admin/quota-defaults",
      {},
      { ...k, nominalGpus: 3, borrowingLimitGpus: 1 },
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      ...k,
      nominalGpus: 3,
      borrowingLimitGpus: 1,
      lendingLimitGpus: null,
    });
    expect(await saved()).toMatchObject({ ...k, nominalGpus: 3 });
    session.actor = null;
  });

  it("puts an organization in a cohort and takes it out; refusals write nothing", async () => {
    const { o, op, owner } = await setup("opcoh");
    const cohort = await createCohort({ actor: op }, { name: `API ${o.slug}` });
    const membership = async () =>
      (await getDb().select().from(cohortMembers).where(eq(cohortMembers.orgId, o.org.id)))[0];
    const body = { cohortId: cohort.id, orgId: o.org.id, weight: 2 };

    session.actor = owner;
    await expectProblem(await putJson(putMember, "/admin/cohort-members", {}, body), 403);
    expect(await membership()).toBeUndefined();

    session.actor = op;
    const bad = await expectProblem(
      await putJson(putMember, "/admin/cohort-members", {}, { ...body, weight: 0 }),
      422,
    );
    expect(Object.keys(bad.errors as object)).toEqual(["weight"]);
    expect(await membership()).toBeUndefined();

    const ok = await putJson(putMember, "/admin/cohort-members", {}, { ...body, weight: "2.5" });
    expect(await ok.json()).toEqual({ ...body, weight: 2.5 });
    expect(await membership()).toMatchObject({ cohortId: cohort.id, weight: 2.5 });

    const del = (orgId: string) =>
      call(
        removeMember,
        `/admin/cohort-members/${orgId}`,
        { orgId },
        { method: "DELETE", headers: console_ },
      );
    await expectProblem(await del("not-a-uuid"), 422);
    session.actor = owner;
    await expectProblem(await del(o.org.id), 403);
    expect(await membership()).toBeDefined();
    session.actor = op;
    expect(await (await del(o.org.id)).json()).toEqual({ orgId: o.org.id, removed: true });
    expect(await membership()).toBeUndefined();
    await expectProblem(await del(o.org.id), 404);
    session.actor = null;
  });

  it("returns a drained node to service; a bad reason and a non-operator leave it draining", async () => {
    const { fleet, op, owner } = await setup("opact");
    const id = fleet.nodes[0]?.id ?? "";
    await drainNode({ actor: op }, id, { reason: "Repair" });
    const status = async () => (await getDb().select().from(nodes).where(eq(nodes.id, id)))[0]?.status;
    const send = (reason: string) =>
      postJson(activate, `/admin/nodes/${id}/activate`, { id }, { reason }, { headers: console_ });

    session.actor = owner;
    await expectProblem(await send("Fixed"), 403);
    session.actor = op;
    await expectProblem(await send("x".repeat(501)), 422);
    expect(await status()).toBe("draining");
    const ok = await send("Fixed");
    expect(await ok.json()).toMatchObject({ nodeId: id, status: "active" });
    expect(await status()).toBe("active");
    session.actor = null;
  });

  it("reads the capacity plan per region × GPU model; a bad page size is a 422; non-operators are refused", async () => {
    const { fleet, op, owner } = await setup("opcap");
    session.actor = owner;
    await expectProblem(await call(capacityPlan, "/admin/capacity-plan", {}, { headers: console_ }), 403);
    session.actor = op;
    await expectProblem(
      await call(capacityPlan, "/admin/capacity-plan?limit=0", {}, { headers: console_ }),
      422,
    );
    const rows = await allPages<
      { regionCode: string; gpuModelId: string; capacityGpus: number; dailyPeaks: number[] },
      Record<string, never>
    >(capacityPlan, "/admin/capacity-plan?limit=100", {}, { headers: console_ });
    const mine = rows.find((r) => r.regionCode === fleet.region);
    expect(mine).toMatchObject({ gpuModelId: "h100", capacityGpus: 2 });
    expect(mine?.dailyPeaks).toHaveLength(30);
    session.actor = null;
  });
});
