import "server-only";
import { eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, nowOf, parseInput } from "@/lib/core";
import { inTx, readDb } from "@/lib/db/client";
import { organizations } from "@/lib/db/schema";
import { quotaPolicySchema } from "./schemas";

/**
 * The organization's quota policy. `preemptLowerPriority`: a launch or start that its own quota (nominal plus
 * borrowing limit, or a project's share) would refuse is admitted instead when preempting the organization's
 * running lower-priority work of the same GPU model and region makes room; that work gets the same notice as a
 * spot interruption and then stops (it does not go back to the queue). Off by default: without it, priority
 * only orders the queue. Only work of the organization itself is ever preempted this way.
 */
export type QuotaPolicy = { preemptLowerPriority: boolean };

/** Any member may read it (it explains why their work was preempted). */
export async function getQuotaPolicy(ctx: Ctx, orgSlug: string): Promise<QuotaPolicy> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const [row] = await readDb(ctx)
    .select({ preemptLowerPriority: organizations.preemptLowerPriority })
    .from(organizations)
    .where(eq(organizations.id, org.id));
  return { preemptLowerPriority: Boolean(row?.preemptLowerPriority) };
}

/**
 * Set the policy (admins and owners), audited with before and after. `precondition` sees the policy as it is
 * under the row lock (the API's If-Match); a refusal writes nothing.
 */
export async function setQuotaPolicy(
  ctx: Ctx,
  orgSlug: string,
  raw: unknown,
  opts: { precondition?: (current: QuotaPolicy) => void } = {},
): Promise<QuotaPolicy> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(quotaPolicySchema, raw);
    const [row] = await tx
      .select({ preemptLowerPriority: organizations.preemptLowerPriority })
      .from(organizations)
      .where(eq(organizations.id, org.id))
      .for("update");
    const before: QuotaPolicy = { preemptLowerPriority: Boolean(row?.preemptLowerPriority) };
    opts.precondition?.(before);
    if (before.preemptLowerPriority === input.preemptLowerPriority) return before;
    await tx
      .update(organizations)
      .set({ preemptLowerPriority: input.preemptLowerPriority })
      .where(eq(organizations.id, org.id));
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "quota.policy_changed",
      targetType: "organization",
      targetId: org.id,
      data: { from: before, to: input },
      at: nowOf(ctx),
    });
    return { preemptLowerPriority: input.preemptLowerPriority };
  });
}
