import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import type { Ctx, UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, invitations, memberships, outbox, users } from "@/lib/db/schema";
import { uniqueEmail } from "@/test/factories";

/** A user (no password, no organization of their own) and their actor context. */
export async function newUser(label = "u") {
  const [user] = await getDb()
    .insert(users)
    .values({
      email: uniqueEmail(label),
      name: `${label} ${randomUUID().slice(0, 4)}`,
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error("user insert returned nothing");
  const actor: UserActor = { kind: "user", userId: user.id, email: user.email, isOperator: false };
  const ctx: Ctx = { actor };
  return { user, actor, ctx };
}

/** A new user who is a member of orgId with role. */
export async function addMember(orgId: string, role: OrgRole, label: string = role) {
  const u = await newUser(label);
  await getDb().insert(memberships).values({ orgId, userId: u.user.id, role });
  return u;
}

export async function roleIn(orgId: string, userId: string): Promise<OrgRole | null> {
  const [m] = await getDb()
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  return m?.role ?? null;
}

export async function auditActions(orgId: string): Promise<string[]> {
  const rows = await getDb()
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.orgId, orgId))
    .orderBy(auditLog.id);
  return rows.map((r) => r.action);
}

/** Rows an organization owns in the tables an invitation touches, to prove a refused call wrote nothing. */
export async function inviteFootprint(orgId: string) {
  const db = getDb();
  return {
    invitations: await db.$count(invitations, eq(invitations.orgId, orgId)),
    outbox: await db.$count(outbox, eq(outbox.orgId, orgId)),
    audit: await db.$count(auditLog, eq(auditLog.orgId, orgId)),
  };
}

/** Pull the token out of the invitation email's link. */
export function tokenFromText(text: string): string {
  const m = text.match(/\/invite\/([A-Za-z0-9_-]+)/);
  if (!m?.[1]) throw new Error(`no invitation link in: ${text}`);
  return m[1];
}

export const DAY = 24 * 60 * 60 * 1000;
