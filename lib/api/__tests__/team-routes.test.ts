import { describe, expect, it } from "vitest";
import { DELETE as delPolicy } from "@/app/api/v1/orgs/[org]/auto-shutdown/policies/[id]/route";
import { GET as listPolicies, PUT as putPolicy } from "@/app/api/v1/orgs/[org]/auto-shutdown/policies/route";
import { DELETE as revokeInvite } from "@/app/api/v1/orgs/[org]/invitations/[id]/route";
import { POST as invite, GET as listInvites } from "@/app/api/v1/orgs/[org]/invitations/route";
import { PUT as putMember, DELETE as removeMember } from "@/app/api/v1/orgs/[org]/members/[id]/route";
import { GET as listMembers } from "@/app/api/v1/orgs/[org]/members/route";
import { POST as createProject, GET as listProjects } from "@/app/api/v1/orgs/[org]/projects/route";
import { newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { call, expectProblem, postJson, tokenFor } from "./support";

type Page<T> = { items: T[]; next: string | null };
const put = (body: unknown, token: string) => ({ token, method: "PUT", body: JSON.stringify(body) });

describe("what organization admins manage over the API", () => {
  it("auto-shutdown policies: set (repeatable), list, delete; a member is refused", async () => {
    const o = await newOrg("policy-api");
    const token = await tokenFor(o.ctx, o.slug);
    const member = await tokenFor(await o.as("member"), o.slug);
    const p = { org: o.slug };
    const path = `/orgs/${o.slug}/auto-shutdown/policies`;
    const body = { defaultIdleMinutes: 30, snoozeMinutesMax: 45, maxSnoozes: 2 };
    const first = await call(putPolicy, path, p, put(body, token));
    expect(first.status).toBe(200);
    const saved = (await first.json()) as { id: string; snoozeMinutesMax: number };
    expect(saved.snoozeMinutesMax).toBe(45);
    // One policy per scope: the same PUT again replaces it, no second row.
    expect(((await (await call(putPolicy, path, p, put(body, token))).json()) as { id: string }).id).toBe(
      saved.id,
    );
    const list = (await (await call(listPolicies, path, p, { token })).json()) as Page<{ id: string }>;
    expect(list.items.map((x) => x.id)).toEqual([saved.id]);
    await expectProblem(await call(putPolicy, path, p, put({ warningMinutes: 0 }, token)), 422);
    await expectProblem(await call(putPolicy, path, p, put(body, member)), 403);
    const del = await call(
      delPolicy,
      `${path}/${saved.id}`,
      { org: o.slug, id: saved.id },
      { token, method: "DELETE" },
    );
    expect(del.status).toBe(204);
  });

  it("members and invitations: list, change a role, invite (idempotent), revoke, remove", async () => {
    const o = await newOrg("team-api");
    const stranger = await newOrg("team-other");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const memberCtx = await o.as("member");
    if (memberCtx.actor.kind !== "user") throw new Error("unreachable");
    const memberId = memberCtx.actor.userId;
    const members = (await (
      await call(listMembers, `/orgs/${o.slug}/members`, p, { token })
    ).json()) as Page<{
      userId: string;
      role: string;
    }>;
    expect(members.items.map((m) => m.role).sort()).toEqual(["member", "owner"]);

    const one = { org: o.slug, id: memberId };
    const changed = await call(
      putMember,
      `/orgs/${o.slug}/members/${memberId}`,
      one,
      put({ role: "admin" }, token),
    );
    expect(await changed.json()).toEqual({ userId: memberId, role: "admin" });
    await expectProblem(
      await call(putMember, `/orgs/${o.slug}/members/${memberId}`, one, put({ role: "boss" }, token)),
      422,
    );

    const key = { "idempotency-key": `invite-${o.slug}` };
    const email = `new-${o.slug}@example.test`;
    const invited = await postJson(
      invite,
      `/orgs/${o.slug}/invitations`,
      p,
      { email, role: "member" },
      { token, headers: key },
    );
    expect(invited.status).toBe(201);
    const inv = (await invited.json()) as { id: string; email: string };
    expect(inv).not.toHaveProperty("token");
    const again = await postJson(
      invite,
      `/orgs/${o.slug}/invitations`,
      p,
      { email, role: "member" },
      { token, headers: key },
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(inv.id);
    const open = (await (
      await call(listInvites, `/orgs/${o.slug}/invitations`, p, { token })
    ).json()) as Page<{ id: string }>;
    expect(open.items.map((i) => i.id)).toEqual([inv.id]);
    // Another organization's owner cannot touch it, under their own organization either.
    const theirs = await tokenFor(stranger.ctx, stranger.slug);
    await expectProblem(
      await call(
        revokeInvite,
        `/orgs/${stranger.slug}/invitations/${inv.id}`,
        { org: stranger.slug, id: inv.id },
        { token: theirs, method: "DELETE" },
      ),
      404,
    );
    const revoked = await call(
      revokeInvite,
      `/orgs/${o.slug}/invitations/${inv.id}`,
      { org: o.slug, id: inv.id },
      { token, method: "DELETE" },
    );
    expect(revoked.status).toBe(204);

    const removed = await call(removeMember, `/orgs/${o.slug}/members/${memberId}`, one, {
      token,
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    await expectProblem(
      await call(removeMember, `/orgs/${o.slug}/members/${memberId}`, one, { token, method: "DELETE" }),
      404,
    );
  });

  it("projects: create (idempotent) and list; a duplicate slug is a 422", async () => {
    const o = await newOrg("project-api");
    const token = await tokenFor(o.ctx, o.slug);
    const p = { org: o.slug };
    const path = `/orgs/${o.slug}/projects`;
    const key = { "idempotency-key": `proj-${o.slug}` };
    const body = { name: "Training", environment: "production" };
    const made = await postJson(createProject, path, p, body, { token, headers: key });
    expect(made.status).toBe(201);
    const project = (await made.json()) as { id: string; slug: string };
    expect(project.slug).toBe("training");
    expect((await postJson(createProject, path, p, body, { token, headers: key })).status).toBe(200);
    await expectProblem(await postJson(createProject, path, p, body, { token }), 422);
    const list = (await (await call(listProjects, `${path}?limit=1`, p, { token })).json()) as Page<{
      slug: string;
    }>;
    expect(list.items).toHaveLength(1);
    expect(list.next).not.toBeNull();
  });
});
