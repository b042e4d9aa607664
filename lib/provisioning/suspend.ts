import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { ConflictError, type Ctx, fieldMessages, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { instances, organizations, orgSuspensions } from "@/lib/db/schema";
import { why } from "./event-reasons";
import { applyTransitions } from "./lifecycle";

/**
 * Field messages of the operator's suspend form (messages/<locale>/admin.json, namespace
 * SuspendFieldErrors): the English text is the API's problem detail, the key is what the form shows.
 */
export const SUSPEND_FIELD_MESSAGES = fieldMessages("SuspendFieldErrors", {
  organizationRequired: "Choose an organization",
  reasonRequired: "Say why (3 to 500 characters)",
  noticeInvalid: "Enter a notice of 0 to 1440 minutes",
});
const M = SUSPEND_FIELD_MESSAGES;

export const DEFAULT_SUSPEND_NOTICE_MINUTES = 60;

export const suspendSchema = z.object({
  org: z.string({ error: M.organizationRequired }).trim().min(1, { error: M.organizationRequired }),
  reason: z
    .string({ error: M.reasonRequired })
    .trim()
    .min(3, { error: M.reasonRequired })
    .max(500, { error: M.reasonRequired }),
  noticeMinutes: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? DEFAULT_SUSPEND_NOTICE_MINUTES : v),
    z.coerce
      .number({ error: M.noticeInvalid })
      .int({ error: M.noticeInvalid })
      .min(0, { error: M.noticeInvalid })
      .max(1440, { error: M.noticeInvalid }),
  ),
});
export const reactivateSchema = z.object({
  org: z.string({ error: M.organizationRequired }).trim().min(1, { error: M.organizationRequired }),
});

export type SuspendResult = { orgId: string; slug: string; noticeEndsAt: Date; noticedInstances: number };

/** The organization by slug, locked for the change (suspend and reactivate serialize on it); NotFound if none. */
async function lockOrganization(tx: Tx, slug: string) {
  const [org] = await tx.select().from(organizations).where(eq(organizations.slug, slug)).for("update");
  if (!org) throw new NotFoundError("Organization");
  return org;
}

/**
 * Operator: suspend an organization (by slug). From now on its launches and starts are refused with the
 * reason (assertNotSuspended), its queued work waits with the reason "organization suspended" (the quota
 * gate), and its running instances get the notice: running → stopping with the notice's end as the deadline,
 * so the reconciler stops them when it ends. One transaction with the audit row; a second suspension is a
 * Conflict and writes nothing.
 */
export async function suspendOrganization(ctx: Ctx, raw: unknown): Promise<SuspendResult> {
  requireOperator(ctx);
  const input = parseInput(suspendSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const now = nowOf(ctx);
    const org = await lockOrganization(tx, input.org);
    const [already] = await tx.select().from(orgSuspensions).where(eq(orgSuspensions.orgId, org.id));
    if (already) {
      throw new ConflictError("This organization is already suspended", { reason: "org_already_suspended" });
    }
    const noticeEndsAt = new Date(now.getTime() + input.noticeMinutes * 60_000);
    await tx.insert(orgSuspensions).values({
      orgId: org.id,
      reason: input.reason,
      suspendedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      suspendedAt: now,
      noticeEndsAt,
    });
    const running = await tx
      .select({ id: instances.id, orgId: instances.orgId })
      .from(instances)
      .where(and(eq(instances.orgId, org.id), eq(instances.state, "running")))
      .for("update");
    const notice = why("org_suspended", { reason: input.reason, stopsAt: noticeEndsAt.toISOString() });
    const moved = await applyTransitions(
      tx,
      { ...ctx, now: () => now },
      running.map((i) => ({
        id: i.id,
        orgId: i.orgId,
        from: "running" as const,
        to: "stopping" as const,
        reason: notice,
        patch: { stateDeadline: noticeEndsAt, stateReason: notice.text },
      })),
    );
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "organization.suspended",
      targetType: "organization",
      targetId: org.id,
      data: {
        slug: org.slug,
        reason: input.reason,
        noticeEndsAt: noticeEndsAt.toISOString(),
        noticed: moved.size,
      },
      at: now,
    });
    return { orgId: org.id, slug: org.slug, noticeEndsAt, noticedInstances: moved.size };
  });
}

/**
 * Operator: lift a suspension. Launches and starts are allowed again and queued work is placed by the next
 * tick; instances already stopping under the notice still stop (their owners start them again).
 */
export async function reactivateOrganization(
  ctx: Ctx,
  raw: unknown,
): Promise<{ orgId: string; slug: string }> {
  requireOperator(ctx);
  const input = parseInput(reactivateSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const now = nowOf(ctx);
    const org = await lockOrganization(tx, input.org);
    const [gone] = await tx.delete(orgSuspensions).where(eq(orgSuspensions.orgId, org.id)).returning();
    if (!gone) throw new ConflictError("This organization is not suspended", { reason: "org_not_suspended" });
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "organization.reactivated",
      targetType: "organization",
      targetId: org.id,
      data: { slug: org.slug, suspendedFor: gone.reason, suspendedAt: gone.suspendedAt.toISOString() },
      at: now,
    });
    return { orgId: org.id, slug: org.slug };
  });
}
