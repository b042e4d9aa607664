import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { DELETE as removeMember } from "@/app/api/v1/admin/cohort-members/[orgId]/route";
import { PUT as putMember } from "@/app/api/v1/admin/cohort-members/route";
import { GET as listCohorts } from "@/app/api/v1/admin/cohorts/route";
import { PUT as putMigLayout } from "@/app/api/v1/admin/nodes/[id]/mig-layout/route";
import { GET as listNodes } from "@/app/api/v1/admin/nodes/route";
import { GET as listDefaults, PUT as putDefault } from "@/app/api/v1/admin/quota-defaults/route";
import { DELETE as revokeInvitation } from "@/app/api/v1/orgs/[org]/invitations/[id]/route";
import { GET as listInvitations } from "@/app/api/v1/orgs/[org]/invitations/route";
import type { UserActor } from "@/lib/core";
import { setNodeMigLayout } from "@/lib/provisioning";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createCohort, setCohortMember, setQuotaDefault } from "@/lib/quotas";
import { inviteMember, resendInvitation } from "@/lib/tenancy";
import { allPages, call, expectProblem, tokenFor } from "./support";

// The console's session (admin-scope tokens are tested in admin-tokens.test.ts).
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));
const console_ = { cookie: "next-auth.session-token=t", host: "forja.test", origin: "http://forja.test" };
type Handler<P> = Parameters<typeof call<P>>[0];
const put = <P>(handler: Handler<P>, path: string, params: P, body: unknown, ifMatch?: string) =>
  call(handler, path, params, {
    method: "PUT",
    headers: { ...console_, "content-type": "application/json", ...(ifMatch ? { "if-match": ifMatch } : {}) },
    body: JSON.stringify(body),
  });

async function operator(prefix: string) {
  const o = await newOrg(prefix);
  const op = { ...(o.actor as UserActor), isOperator: true };
  session.actor = op;
  return { o, op: { actor: op } };
}

describe("ETag and If-Match on the remaining updates (issue 10)", () => {
  it("PUT /admin/quota-defaults: a stale row etag is a 412 and writes nothing; a fresh one saves", async () => {
    const fleet = await newFleet([{ gpus: 1 }]);
    const { op } = await operator("etag-def");
    const k = { gpuModelId: "h100", regionCode: fleet.region };
    type Row = { regionCode: string; nominalGpus: number; etag: string };
    const row = async () =>
      (
        await allPages<Row, Record<string, never>>(
          listDefaults,
          `/admin/quota-defaults?gpuModel=h100&region=${fleet.region}`,
          {},
          { headers: console_ },
        )
      ).find((r) => r.regionCode === fleet.region);
    // None yet: any If-Match is refused (RFC 9110: no current representation), nothing created.
    expect(
      (
        await expectProblem(
          await put(
            putDefault,
            "/admin/quota-defaults",
            {},
            { ...k, nominalGpus: 1, borrowingLimitGpus: 0 },
            '"x"',
          ),
          412,
        )
      ).reason,
    ).toBe("precondition_failed");
    expect(await row()).toBeUndefined();
    const first = await put(
      putDefault,
      "/admin/quota-defaults",
      {},
      { ...k, nominalGpus: 3, borrowingLimitGpus: 0 },
    );
    expect(first.status).toBe(200);
    const seen = await row();
    expect(seen?.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("etag")).toBe(seen?.etag);
    // Another operator changes it meanwhile.
    await setQuotaDefault(op, { ...k, nominalGpus: 4, borrowingLimitGpus: 0 });
    const stale = await put(
      putDefault,
      "/admin/quota-defaults",
      {},
      { ...k, nominalGpus: 5, borrowingLimitGpus: 0 },
      seen?.etag,
    );
    expect((await expectProblem(stale, 412)).reason).toBe("precondition_failed");
    const now = await row();
    expect(now?.nominalGpus).toBe(4);
    const ok = await put(
      putDefault,
      "/admin/quota-defaults",
      {},
      { ...k, nominalGpus: 5, borrowingLimitGpus: 0 },
      now?.etag,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe((await row())?.etag);
    expect((await row())?.nominalGpus).toBe(5);
    session.actor = null;
  });

  it("PUT /admin/cohort-members: a member's etag from GET /admin/cohorts?org=; stale → 412, fresh saves", async () => {
    const { o, op } = await operator("etag-cohort");
    const other = await newOrg("etag-cohort-b");
    const cohort = await createCohort(op, { name: `etag-${randomUUID().slice(0, 8)}` });
    const body = (weight: number) => ({ cohortId: cohort.id, orgId: o.org.id, weight });
    type Cohort = { id: string; members: Array<{ orgId: string; weight: number; etag: string }> };
    const member = async () => {
      const list = await allPages<Cohort, Record<string, never>>(
        listCohorts,
        `/admin/cohorts?org=${o.org.id}`,
        {},
        { headers: console_ },
      );
      expect(list.map((c) => c.id)).toEqual([cohort.id]);
      return list[0]?.members.find((m) => m.orgId === o.org.id);
    };
    const first = await put(putMember, "/admin/cohort-members", {}, body(1.5));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(body(1.5));
    const seen = await member();
    expect(first.headers.get("etag")).toBe(seen?.etag);
    await setCohortMember(op, body(2));
    const stale = await put(putMember, "/admin/cohort-members", {}, body(3), seen?.etag);
    expect((await expectProblem(stale, 412)).reason).toBe("precondition_failed");
    const now = await member();
    expect(now?.weight).toBe(2);
    const ok = await put(putMember, "/admin/cohort-members", {}, body(3), now?.etag);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe((await member())?.etag);
    // An organization in no cohort has no membership to match.
    const none = await put(
      putMember,
      "/admin/cohort-members",
      {},
      { ...body(1), orgId: other.org.id },
      now?.etag,
    );
    await expectProblem(none, 412);
    const gone = await allPages<Cohort, Record<string, never>>(
      listCohorts,
      `/admin/cohorts?org=${other.org.id}`,
      {},
      { headers: console_ },
    );
    expect(gone).toEqual([]);
    // Taking it out on what was read before another change is a 412 too; it stays in.
    const before = await member();
    await setCohortMember(op, body(4));
    const path = `/admin/cohort-members/${o.org.id}`;
    const remove = (ifMatch: string) =>
      call(
        removeMember,
        path,
        { orgId: o.org.id },
        { method: "DELETE", headers: { ...console_, "if-match": ifMatch } },
      );
    expect((await expectProblem(await remove(before?.etag as string), 412)).reason).toBe(
      "precondition_failed",
    );
    expect((await member())?.weight).toBe(4);
    const out = await remove((await member())?.etag as string);
    expect(out.status).toBe(200);
    session.actor = null;
  });

  it("PUT /admin/nodes/{id}/mig-layout: the node row's etag; a layout changed since → 412, unchanged", async () => {
    const fleet = await newFleet([{ gpus: 2 }]);
    const { op } = await operator("etag-mig");
    const id = fleet.nodes[0]?.id as string;
    type Node = { id: string; migGpuIndexes: number[]; etag: string };
    const node = async () =>
      (
        await allPages<Node, Record<string, never>>(
          listNodes,
          `/admin/nodes?region=${fleet.region}`,
          {},
          { headers: console_ },
        )
      ).find((n) => n.id === id);
    const seen = await node();
    expect(seen?.migGpuIndexes).toEqual([]);
    await setNodeMigLayout(op, id, { migGpus: [0] });
    const path = `/admin/nodes/${id}/mig-layout`;
    const stale = await put(putMigLayout, path, { id }, { migGpus: [1] }, seen?.etag);
    expect((await expectProblem(stale, 412)).reason).toBe("precondition_failed");
    const now = await node();
    expect(now?.migGpuIndexes).toEqual([0]);
    const ok = await put(putMigLayout, path, { id }, { migGpus: [1] }, now?.etag);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ nodeId: id, migGpus: [1] });
    expect(ok.headers.get("etag")).toBe((await node())?.etag);
    session.actor = null;
  });

  it("DELETE /orgs/{org}/invitations/{id}: an invitation resent since it was read → 412, still open", async () => {
    const o = await newOrg("etag-inv");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const { invitation } = await inviteMember(o.ctx, o.slug, {
      email: `etag-${o.slug}@example.test`,
      role: "member",
    });
    type Inv = { id: string; expiresAt: string; etag: string };
    const row = async () =>
      (
        await allPages<Inv, { org: string }>(listInvitations, `/orgs/${o.slug}/invitations`, p, { token })
      ).find((i) => i.id === invitation.id);
    const seen = await row();
    expect(seen?.etag).toMatch(/^"[\w-]+"$/);
    // Resent a minute later: a new link and a new expiry.
    await resendInvitation({ ...o.ctx, now: () => new Date(Date.now() + 60_000) }, o.slug, {
      invitationId: invitation.id,
    });
    const del = (ifMatch: string) =>
      call(
        revokeInvitation,
        `/orgs/${o.slug}/invitations/${invitation.id}`,
        { ...p, id: invitation.id },
        {
          method: "DELETE",
          token,
          headers: { "if-match": ifMatch },
        },
      );
    expect((await expectProblem(await del(seen?.etag as string), 412)).reason).toBe("precondition_failed");
    const now = await row();
    expect(now?.expiresAt).not.toBe(seen?.expiresAt);
    const ok = await del(now?.etag as string);
    expect(ok.status).toBe(204);
    expect(await row()).toBeUndefined();
  });
});
