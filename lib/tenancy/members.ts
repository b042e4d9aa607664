import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { type OrgRole, requireOrgAccess, roleAtLeast } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { inTx, readDb, type Tx } from "@/lib/db/client";
import { apiTokens, memberships, users } from "@/lib/db/schema";
import { conflict, forbidden } from "./errors";
import { changeRoleSchema, memberIdSchema } from "./schemas";

export type Member = { userId: string; name: string; email: string; role: OrgRole; joinedAt: Date };
/** What a role change or removal may check first (the API's If-Match over the member's role), under the lock. */
export type MemberPrecondition = { precondition?: (current: { userId: string; role: OrgRole }) => void };

/** One member (any role may look, like the list); someone outside the organization is NotFound. */
export async function getMember(ctx: Ctx, orgSlug: string, userId: string): Promise<Member> {
  const access = await requireOrgAccess(ctx, orgSlug, "viewer");
  const { userId: id } = parseInput(memberIdSchema, { userId });
  const [row] = await readDb(ctx)
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, access.org.id), eq(memberships.userId, id)));
  if (!row) throw new NotFoundError("Member");
  return row;
}

/** Everyone in the organization, owners first (the enum's order), then by name. Any member may look. */
export async function listMembers(ctx: Ctx, orgSlug: string): Promise<Member[]> {
  const access = await requireOrgAccess(ctx, orgSlug, "viewer");
  return readDb(ctx)
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, access.org.id))
    .orderBy(asc(memberships.role), asc(users.name));
}

/**
 * Lock the organization's owner memberships (FOR UPDATE, in id order so concurrent callers never deadlock),
 * then read the current roles of the actor and the target. Every change that demotes or removes an owner goes
 * through here, so "is this the last owner?" is answered while no other such change can commit.
 */
async function lockOwners(tx: Tx, orgId: string, userIds: string[]) {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.role, "owner")))
    .orderBy(asc(memberships.id))
    .for("update");
  const rows = await tx
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), inArray(memberships.userId, userIds)));
  const roles = new Map(rows.map((r) => [r.userId, r.role]));
  return { ownerCount: owners.length, roleOf: (id: string) => roles.get(id) };
}

const LAST_OWNER = "An organization needs at least one owner. Make someone else an owner first.";

/** The actor (re-read under the lock) may manage target: admins+, and only owners touch owners. */
function assertMayManage(actorRole: OrgRole | undefined, targetRole: OrgRole, newRole?: OrgRole) {
  if (!actorRole || !roleAtLeast(actorRole, "admin")) {
    throw forbidden("This needs the admin role or higher", "admin_only");
  }
  if (actorRole !== "owner" && (targetRole === "owner" || newRole === "owner")) {
    throw forbidden("Only owners can grant, change or remove the owner role", "owner_only");
  }
}

export async function changeMemberRole(
  ctx: Ctx,
  orgSlug: string,
  raw: unknown,
  opts: MemberPrecondition = {},
) {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a weaker role's bad body is a refusal, not a field list.
    const access = await requireOrgAccess(c, orgSlug, "admin");
    // Who first (another organization's member is NotFound whatever the body), then the new role.
    const { userId } = parseInput(memberIdSchema, raw);
    const state = await lockOwners(tx, access.org.id, [access.userId, userId]);
    const from = state.roleOf(userId);
    if (!from) throw new NotFoundError("Member");
    const input = parseInput(changeRoleSchema, raw);
    assertMayManage(access.role, from, input.role);
    // Every role change and removal takes the owners' lock first, so the role read above is current.
    opts.precondition?.({ userId, role: from });
    if (from === input.role) return { changed: false as const };
    if (from === "owner" && state.ownerCount <= 1) throw conflict(LAST_OWNER, "last_owner");
    // The actor's own role may have changed while we waited for the lock.
    assertMayManage(state.roleOf(access.userId), from, input.role);
    await tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.orgId, access.org.id), eq(memberships.userId, input.userId)));
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "member.role_changed",
      targetType: "user",
      targetId: input.userId,
      data: { from, to: input.role },
      at: now,
    });
    return { changed: true as const };
  });
}

async function deleteMembership(tx: Tx, orgId: string, userId: string, now: Date) {
  await tx.delete(memberships).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  // Tokens stop working anyway without a membership; revoking them keeps them dead if the person returns.
  await tx
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.orgId, orgId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}

/** Remove someone else (admins+; owners only by owners). Removing yourself is leaving. */
export async function removeMember(ctx: Ctx, orgSlug: string, raw: unknown, opts: MemberPrecondition = {}) {
  const input = parseInput(memberIdSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "viewer");
    if (input.userId === access.userId) return leaveIn(tx, ctx, access.org.id, access.userId, now);
    if (!roleAtLeast(access.role, "admin"))
      throw forbidden("This needs the admin role or higher", "admin_only");
    const state = await lockOwners(tx, access.org.id, [access.userId, input.userId]);
    const role = state.roleOf(input.userId);
    if (!role) throw new NotFoundError("Member");
    assertMayManage(access.role, role);
    opts.precondition?.({ userId: input.userId, role });
    if (role === "owner" && state.ownerCount <= 1) throw conflict(LAST_OWNER, "last_owner");
    assertMayManage(state.roleOf(access.userId), role);
    await deleteMembership(tx, access.org.id, input.userId, now);
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "member.removed",
      targetType: "user",
      targetId: input.userId,
      data: { role },
      at: now,
    });
  });
}

async function leaveIn(tx: Tx, ctx: Ctx, orgId: string, userId: string, now: Date) {
  const state = await lockOwners(tx, orgId, [userId]);
  const role = state.roleOf(userId);
  if (!role) throw new NotFoundError("Member");
  if (role === "owner" && state.ownerCount <= 1) {
    throw conflict(
      "You are the last owner. Make someone else an owner before you leave.",
      "last_owner_leave",
    );
  }
  await deleteMembership(tx, orgId, userId, now);
  await writeAudit(tx, ctx.actor, {
    orgId,
    action: "member.left",
    targetType: "user",
    targetId: userId,
    data: { role },
    at: now,
  });
}

/** Leave an organization (any role), unless you are its last owner. */
export async function leaveOrganization(ctx: Ctx, orgSlug: string) {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "viewer");
    await leaveIn(tx, ctx, access.org.id, access.userId, now);
  });
}
