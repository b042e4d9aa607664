import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { type OrgRole, requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, readDb, type Tx } from "@/lib/db/client";
import { invitations, memberships, users } from "@/lib/db/schema";
import { enqueueEmail } from "@/lib/notify";
import { forbidden, invalidState } from "./errors";
import { TENANCY_FIELD_MESSAGES } from "./field-messages";
import { invitationEmail } from "./invitation-email";
import { type InviteInput, invitationIdSchema, inviteSchema } from "./schemas";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Only the sha256 of a token is stored, so a database leak does not hand out working invitation links. */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

type EmailOpts = { locale?: string };

async function inviterName(tx: Tx, userId: string): Promise<string> {
  const [u] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  return u?.name ?? "Someone";
}

/**
 * Invite someone by email with a role. Admins may invite admins, members and viewers; only owners may invite
 * owners. An existing member, or an email that already has an open invitation, is a field error. The email is
 * enqueued in the same transaction, so it exists if and only if the invitation does.
 */
export async function inviteMember(
  ctx: Ctx,
  orgSlug: string,
  raw: InviteInput | unknown,
  opts: EmailOpts = {},
) {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a weaker role's bad body is a refusal, not a field list.
    const access = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(inviteSchema, raw);
    if (input.role === "owner" && access.role !== "owner") {
      throw forbidden("Only owners can invite owners", "owner_only");
    }
    // Two simultaneous invitations of one address must not both pass the duplicate check below.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`invite:${access.org.id}:${input.email}`}))`,
    );
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.orgId, access.org.id), eq(users.email, input.email)))
      .limit(1);
    if (member) throw ValidationError.field("email", TENANCY_FIELD_MESSAGES.alreadyMember);
    // At most one open invitation per address: an expired one is renewed with "Resend", not duplicated.
    const [open] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(openInvitation(access.org.id, input.email))
      .limit(1);
    if (open) {
      throw ValidationError.field("email", TENANCY_FIELD_MESSAGES.alreadyInvited);
    }
    const token = newToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    const [invitation] = await tx
      .insert(invitations)
      .values({
        orgId: access.org.id,
        email: input.email,
        role: input.role,
        tokenHash: hashInvitationToken(token),
        invitedBy: access.userId,
        expiresAt,
        createdAt: now,
      })
      .returning();
    if (!invitation) throw new Error("invitation insert returned nothing");
    await enqueueEmail(
      tx,
      invitationEmail({
        to: input.email,
        orgId: access.org.id,
        orgName: access.org.name,
        inviterName: await inviterName(tx, access.userId),
        role: input.role,
        token,
        expiresAt,
        locale: opts.locale,
      }),
    );
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "invitation.created",
      targetType: "invitation",
      targetId: invitation.id,
      data: { email: input.email, role: input.role },
      at: now,
    });
    // The token is returned for callers that show a copyable link; it is never stored.
    return { invitation, token };
  });
}

function openInvitation(orgId: string, email: string) {
  return and(
    eq(invitations.orgId, orgId),
    eq(invitations.email, email),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
  );
}

/** Lock an open invitation of this organization for resend/revoke; admins may not touch owner invitations. */
async function lockManageableInvitation(c: Ctx & { tx: Tx }, orgSlug: string, invitationId: string) {
  const { tx } = c;
  const access = await requireOrgAccess(c, orgSlug, "admin");
  const [inv] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.orgId, access.org.id)))
    .for("update");
  if (!inv) throw new NotFoundError("Invitation");
  if (inv.role === "owner" && access.role !== "owner") {
    throw forbidden("Only owners can manage invitations for owners", "owner_only");
  }
  if (inv.acceptedAt) throw invalidState("This invitation was already accepted", "invitation_accepted");
  if (inv.revokedAt) throw invalidState("This invitation was revoked", "invitation_revoked");
  return { access, inv };
}

/**
 * What an open invitation's API ETag covers: a resend (new link, new expiry) or a change of role since it was
 * read makes a revoke made on what was read a 412.
 */
export type InvitationTagView = { id: string; email: string; role: OrgRole; expiresAt: Date };
export const invitationTagView = (r: InvitationTagView): InvitationTagView => ({
  id: r.id,
  email: r.email,
  role: r.role,
  expiresAt: r.expiresAt,
});

/** Send the invitation again with a new link (the old one stops working) and a fresh 7-day expiry. */
export async function resendInvitation(ctx: Ctx, orgSlug: string, raw: unknown, opts: EmailOpts = {}) {
  const { invitationId } = parseInput(invitationIdSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { access, inv } = await lockManageableInvitation(c, orgSlug, invitationId);
    const token = newToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await tx
      .update(invitations)
      .set({ tokenHash: hashInvitationToken(token), expiresAt })
      .where(eq(invitations.id, inv.id));
    await enqueueEmail(
      tx,
      invitationEmail({
        to: inv.email,
        orgId: access.org.id,
        orgName: access.org.name,
        inviterName: await inviterName(tx, access.userId),
        role: inv.role,
        token,
        expiresAt,
        locale: opts.locale,
      }),
    );
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "invitation.resent",
      targetType: "invitation",
      targetId: inv.id,
      data: { email: inv.email },
      at: now,
    });
    return { token, expiresAt };
  });
}

export async function revokeInvitation(
  ctx: Ctx,
  orgSlug: string,
  raw: unknown,
  opts: { precondition?: (current: InvitationTagView) => void } = {},
) {
  const { invitationId } = parseInput(invitationIdSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { access, inv } = await lockManageableInvitation(c, orgSlug, invitationId);
    opts.precondition?.(inv);
    await tx.update(invitations).set({ revokedAt: now }).where(eq(invitations.id, inv.id));
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "invitation.revoked",
      targetType: "invitation",
      targetId: inv.id,
      data: { email: inv.email },
      at: now,
    });
  });
}

/** Open (not accepted, not revoked) invitations, newest first; expired ones are flagged so they can be resent. */
export async function listInvitations(ctx: Ctx, orgSlug: string) {
  const access = await requireOrgAccess(ctx, orgSlug, "admin");
  const now = nowOf(ctx);
  const exec = readDb(ctx);
  const rows = await exec
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      createdAt: invitations.createdAt,
      invitedByName: users.name,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(
      and(
        eq(invitations.orgId, access.org.id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .orderBy(desc(invitations.createdAt));
  return rows.map((r) => ({ ...r, expired: r.expiresAt.getTime() <= now.getTime() }));
}
