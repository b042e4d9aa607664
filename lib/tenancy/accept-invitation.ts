import "server-only";
import { and, eq } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, UnauthorizedError, type UserActor } from "@/lib/core";
import { readDb, type Tx, withTx } from "@/lib/db/client";
import { invitations, memberships, organizations, users } from "@/lib/db/schema";
import { forbidden, invalidState } from "./errors";
import { hashInvitationToken } from "./invitations";

export type InvitationStatus = "pending" | "expired" | "revoked" | "accepted";

export type InvitationView = {
  status: InvitationStatus;
  email: string;
  role: OrgRole;
  org: { slug: string; name: string };
  inviterName: string | null;
  expiresAt: Date;
  /** Whether an account with the invited email exists: the page offers sign-in instead of sign-up. */
  accountExists: boolean;
};

function plausibleToken(token: string): boolean {
  return token.length > 0 && token.length <= 200;
}

function statusOf(inv: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date) {
  if (inv.revokedAt) return "revoked";
  if (inv.acceptedAt) return "accepted";
  if (inv.expiresAt.getTime() <= now.getTime()) return "expired";
  return "pending";
}

/**
 * What the /invite/<token> page shows. Public: holding the token (it came by email) is what grants a look.
 * Unknown tokens return null.
 */
export async function findInvitationByToken(
  ctx: Pick<Ctx, "tx" | "now">,
  token: string,
): Promise<InvitationView | null> {
  if (!plausibleToken(token)) return null;
  const exec = readDb(ctx);
  const [row] = await exec
    .select({ inv: invitations, org: { slug: organizations.slug, name: organizations.name } })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.orgId))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)))
    .limit(1);
  if (!row) return null;
  const [inviter] = row.inv.invitedBy
    ? await exec.select({ name: users.name }).from(users).where(eq(users.id, row.inv.invitedBy))
    : [];
  const [account] = await exec.select({ id: users.id }).from(users).where(eq(users.email, row.inv.email));
  return {
    status: statusOf(row.inv, nowOf(ctx)),
    email: row.inv.email,
    role: row.inv.role,
    org: row.org,
    inviterName: inviter?.name ?? null,
    expiresAt: row.inv.expiresAt,
    accountExists: Boolean(account),
  };
}

/**
 * Accept an invitation as actor, in tx. Only the invited email may accept. Accepting again after success is a
 * no-op that returns the same organization (idempotent); a member who already belongs keeps their role.
 */
export async function acceptInvitationInTx(tx: Tx, actor: UserActor, token: string, now: Date) {
  if (!plausibleToken(token)) throw new NotFoundError("Invitation");
  const [row] = await tx
    .select({
      inv: invitations,
      org: { id: organizations.id, slug: organizations.slug, name: organizations.name },
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.orgId))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)))
    .for("update", { of: invitations });
  if (!row) throw new NotFoundError("Invitation");
  const { inv, org } = row;
  if (inv.revokedAt) throw invalidState("This invitation was revoked", "invitation_revoked");
  if (inv.email !== actor.email.toLowerCase()) {
    throw forbidden("This invitation was sent to another email address", "invitation_wrong_email");
  }
  const [existing] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, org.id), eq(memberships.userId, actor.userId)));
  if (inv.acceptedAt) {
    if (existing) return { org, role: existing.role, alreadyAccepted: true };
    // Accepted, then the person left or was removed: the link does not let them back in.
    throw invalidState("This invitation was already used", "invitation_used");
  }
  if (inv.expiresAt.getTime() <= now.getTime()) {
    throw invalidState("This invitation has expired. Ask for a new one.", "invitation_expired");
  }
  // Issue 12 item 6: an address someone only claimed at sign-up (never proven) may not join by invitation,
  // or whoever registered alice@corp.com first would receive Alice's team membership.
  const [me] = await tx
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!existing && !me?.verifiedAt) {
    throw invalidState("Confirm your email address before accepting invitations", "email_unverified");
  }
  if (!existing) {
    await tx
      .insert(memberships)
      .values({ orgId: org.id, userId: actor.userId, role: inv.role, createdAt: now });
  }
  await tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, inv.id));
  await writeAudit(tx, actor, {
    orgId: org.id,
    action: "invitation.accepted",
    targetType: "invitation",
    targetId: inv.id,
    data: { email: inv.email, role: inv.role, alreadyMember: Boolean(existing) },
    at: now,
  });
  return { org, role: existing?.role ?? inv.role, alreadyAccepted: false };
}

export async function acceptInvitation(ctx: Ctx, token: string) {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  const actor = ctx.actor;
  return withTx(ctx.tx, (tx) => acceptInvitationInTx(tx, actor, token, nowOf(ctx)));
}
