import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { apiTokens, memberships } from "@/lib/db/schema";
import { changeMemberRole, leaveOrganization, listMembers, removeMember } from "@/lib/tenancy";
import { newTenant } from "@/test/factories";
import { addMember, auditActions, roleIn } from "./helpers";

describe("listMembers", () => {
  it("lists everyone, owners first, for any member; another tenant gets NotFound", async () => {
    const { org, user } = await newTenant("mem-list");
    const viewer = await addMember(org.id, "viewer");
    await addMember(org.id, "admin");
    const list = await listMembers(viewer.ctx, org.slug);
    expect(list.map((m) => m.role)).toEqual(["owner", "admin", "viewer"]);
    expect(list[0]?.userId).toBe(user.id);
    const other = await newTenant("mem-other");
    await expect(listMembers(other.ctx, org.slug)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("changeMemberRole", () => {
  it("lets an admin change a member's role and records from/to in the audit log", async () => {
    const { org } = await newTenant("mem-role");
    const admin = await addMember(org.id, "admin");
    const member = await addMember(org.id, "member");
    await changeMemberRole(admin.ctx, org.slug, { userId: member.user.id, role: "viewer" });
    expect(await roleIn(org.id, member.user.id)).toBe("viewer");
    expect(await auditActions(org.id)).toContain("member.role_changed");
  });

  it.each(["member", "viewer"] as const)("refuses a %s", async (role) => {
    const { org } = await newTenant("mem-weak");
    const weak = await addMember(org.id, role);
    const target = await addMember(org.id, "viewer");
    await expect(
      changeMemberRole(weak.ctx, org.slug, { userId: target.user.id, role: "admin" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await roleIn(org.id, target.user.id)).toBe("viewer");
  });

  it("does not let an admin promote anyone to owner or touch an owner", async () => {
    const { org, user: owner } = await newTenant("mem-admin-limits");
    const admin = await addMember(org.id, "admin");
    const member = await addMember(org.id, "member");
    await expect(
      changeMemberRole(admin.ctx, org.slug, { userId: member.user.id, role: "owner" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      changeMemberRole(admin.ctx, org.slug, { userId: owner.id, role: "viewer" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(admin.ctx, org.slug, { userId: owner.id })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await roleIn(org.id, member.user.id)).toBe("member");
    expect(await roleIn(org.id, owner.id)).toBe("owner");
  });

  it("lets an owner make another owner, and then step down", async () => {
    const { org, ctx, user } = await newTenant("mem-owner");
    const admin = await addMember(org.id, "admin");
    await changeMemberRole(ctx, org.slug, { userId: admin.user.id, role: "owner" });
    await changeMemberRole(ctx, org.slug, { userId: user.id, role: "admin" });
    expect(await roleIn(org.id, user.id)).toBe("admin");
    expect(await roleIn(org.id, admin.user.id)).toBe("owner");
  });

  it("refuses to demote the last owner with a Conflict", async () => {
    const { org, ctx, user } = await newTenant("mem-last");
    const err = await changeMemberRole(ctx, org.slug, { userId: user.id, role: "admin" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect(await roleIn(org.id, user.id)).toBe("owner");
  });

  it("answers NotFound for a user who is not a member, and for another tenant's owner", async () => {
    const { org, ctx } = await newTenant("mem-nf");
    const other = await newTenant("mem-nf-other");
    await expect(
      changeMemberRole(ctx, org.slug, { userId: other.user.id, role: "viewer" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      changeMemberRole(other.ctx, org.slug, { userId: other.user.id, role: "owner" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await roleIn(org.id, other.user.id)).toBeNull();
  });

  it.each([
    ["an unknown role", { role: "god" }, "role"],
    ["a malformed user id", { userId: "123" }, "userId"],
    ["a missing role", { role: undefined }, "role"],
  ])("refuses %s with a field error", async (_label, override, field) => {
    const { org, ctx } = await newTenant("mem-val");
    const member = await addMember(org.id, "member");
    const err = await changeMemberRole(ctx, org.slug, {
      userId: member.user.id,
      role: "viewer",
      ...override,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    expect(await roleIn(org.id, member.user.id)).toBe("member");
  });
});

/**
 * Start `first` inside a transaction that stays open until `second` is observed waiting for a row lock (or
 * has finished — which is what happens if the code takes no lock), then commit and return both outcomes.
 */
async function raceWithOpenTransaction(
  first: (tx: Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0]) => Promise<unknown>,
  second: () => Promise<unknown>,
) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let firstDone!: () => void;
  const firstReady = new Promise<void>((r) => {
    firstDone = r;
  });
  const a = getDb()
    .transaction(async (tx) => {
      await first(tx);
      firstDone();
      await gate;
    })
    .then(
      () => ({ ok: true as const }),
      (e: unknown) => ({ ok: false as const, e }),
    );
  await firstReady;
  let secondSettled = false;
  const b = second().then(
    () => ({ ok: true as const }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  void b.finally(() => {
    secondSettled = true;
  });
  for (let i = 0; i < 500 && !secondSettled; i++) {
    const waiting = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
    );
    if (Number(waiting.rows[0]?.n) > 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  release();
  return [await a, await b] as const;
}

describe("last-owner protection under concurrency", () => {
  it("two owners demoting themselves at once: one succeeds, the other gets a Conflict", async () => {
    const { org, ctx, user } = await newTenant("mem-race");
    const second = await addMember(org.id, "owner", "owner2");
    const [a, b] = await raceWithOpenTransaction(
      (tx) => changeMemberRole({ ...ctx, tx }, org.slug, { userId: user.id, role: "admin" }),
      () => changeMemberRole(second.ctx, org.slug, { userId: second.user.id, role: "admin" }),
    );
    expect(a.ok).toBe(true);
    expect(b.ok ? null : b.e).toBeInstanceOf(ConflictError);
    const owners = await getDb().$count(
      memberships,
      and(eq(memberships.orgId, org.id), eq(memberships.role, "owner")),
    );
    expect(owners).toBe(1);
  });

  it("two owners demoting each other at once: one succeeds, the other gets a Conflict", async () => {
    const { org, ctx, user } = await newTenant("mem-race-x");
    const second = await addMember(org.id, "owner", "owner2");
    const [a, b] = await raceWithOpenTransaction(
      (tx) => changeMemberRole({ ...ctx, tx }, org.slug, { userId: second.user.id, role: "member" }),
      () => changeMemberRole(second.ctx, org.slug, { userId: user.id, role: "member" }),
    );
    expect(a.ok).toBe(true);
    expect(b.ok ? null : b.e).toBeInstanceOf(ConflictError);
    expect(await roleIn(org.id, user.id)).toBe("owner");
  });

  it("an owner removed while the other leaves: the organization keeps an owner", async () => {
    const { org, ctx, user } = await newTenant("mem-race-rm");
    const second = await addMember(org.id, "owner", "owner2");
    const [a, b] = await raceWithOpenTransaction(
      (tx) => removeMember({ ...ctx, tx }, org.slug, { userId: second.user.id }),
      () => leaveOrganization(ctx, org.slug),
    );
    expect(a.ok).toBe(true);
    expect(b.ok ? null : b.e).toBeInstanceOf(ConflictError);
    expect(await roleIn(org.id, user.id)).toBe("owner");
  });
});

describe("removeMember and leaveOrganization", () => {
  it("removes a member, revokes their API tokens for the organization, and audits it", async () => {
    const { org } = await newTenant("mem-rm");
    const admin = await addMember(org.id, "admin");
    const member = await addMember(org.id, "member");
    await getDb()
      .insert(apiTokens)
      .values({
        orgId: org.id,
        userId: member.user.id,
        name: "ci",
        prefix: "fj_x",
        tokenHash: `h-${member.user.id}`,
      });
    await removeMember(admin.ctx, org.slug, { userId: member.user.id });
    expect(await roleIn(org.id, member.user.id)).toBeNull();
    const [token] = await getDb().select().from(apiTokens).where(eq(apiTokens.userId, member.user.id));
    expect(token?.revokedAt).not.toBeNull();
    expect(await auditActions(org.id)).toContain("member.removed");
  });

  it.each(["member", "viewer"] as const)("refuses removal by a %s", async (role) => {
    const { org } = await newTenant("mem-rm-weak");
    const weak = await addMember(org.id, role);
    const target = await addMember(org.id, "viewer");
    await expect(removeMember(weak.ctx, org.slug, { userId: target.user.id })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await roleIn(org.id, target.user.id)).toBe("viewer");
  });

  it("refuses to remove the last owner", async () => {
    const { org, ctx, user } = await newTenant("mem-rm-last");
    await expect(removeMember(ctx, org.slug, { userId: user.id })).rejects.toBeInstanceOf(ConflictError);
    expect(await roleIn(org.id, user.id)).toBe("owner");
  });

  it("lets any member leave, but not the last owner", async () => {
    const { org, ctx, user } = await newTenant("mem-leave");
    const viewer = await addMember(org.id, "viewer");
    await leaveOrganization(viewer.ctx, org.slug);
    expect(await roleIn(org.id, viewer.user.id)).toBeNull();
    expect(await auditActions(org.id)).toContain("member.left");
    await expect(leaveOrganization(ctx, org.slug)).rejects.toBeInstanceOf(ConflictError);
    expect(await roleIn(org.id, user.id)).toBe("owner");
    await expect(leaveOrganization(viewer.ctx, org.slug)).rejects.toBeInstanceOf(NotFoundError);
  });
});
