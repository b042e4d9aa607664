import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { memberships, users } from "@/lib/db/schema";

export type Recipient = { email: string; locale: string | null; userId: string | null };

/**
 * Who gets a budget's alerts: the chosen members who are still in the organization (at their current
 * address and language) and the extra addresses. A budget with nobody chosen alerts its admins and owners,
 * and so does one whose chosen people have all left with no extra address (`fallback`: the alert says so), so
 * an alert never goes nowhere.
 */
export async function budgetRecipients(
  exec: Executor,
  budget: { orgId: string; recipientUserIds: string[]; recipientEmails: string[] },
): Promise<{ recipients: Recipient[]; fallback: boolean }> {
  const pick = (where: ReturnType<typeof and>) =>
    exec
      .select({ userId: users.id, email: users.email, locale: users.locale })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where);
  const admins = () =>
    pick(and(eq(memberships.orgId, budget.orgId), inArray(memberships.role, ["owner", "admin"])));
  let fallback = false;
  let members =
    budget.recipientUserIds.length > 0
      ? await pick(
          and(eq(memberships.orgId, budget.orgId), inArray(memberships.userId, budget.recipientUserIds)),
        )
      : budget.recipientEmails.length > 0
        ? []
        : await admins();
  if (members.length === 0 && budget.recipientEmails.length === 0) {
    members = await admins();
    fallback = budget.recipientUserIds.length > 0;
  }
  const out = new Map<string, Recipient>();
  for (const m of members)
    out.set(m.email.toLowerCase(), { email: m.email.toLowerCase(), locale: m.locale, userId: m.userId });
  for (const e of budget.recipientEmails) {
    const email = e.toLowerCase();
    if (!out.has(email)) out.set(email, { email, locale: null, userId: null });
  }
  return { recipients: [...out.values()].sort((a, b) => a.email.localeCompare(b.email)), fallback };
}
