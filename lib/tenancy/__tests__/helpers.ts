import { and, eq } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import { getDb } from "@/lib/db/client";
import { auditLog, invitations, memberships, outbox } from "@/lib/db/schema";

export { addMember, newUser } from "@/test/factories";

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
