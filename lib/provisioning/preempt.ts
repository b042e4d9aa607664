import "server-only";
import { eq } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { type Ctx, InvalidStateError, NotFoundError, nowOf } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { why } from "./event-reasons";
import { applyTransition, giveNotice } from "./lifecycle";
import { SPOT_NOTICE_MS } from "./scheduler";

/**
 * Preempt a running spot instance with a notice period (operators and the system; the scheduler and the
 * reconciler do the same in bulk). On-demand and reserved instances are never preempted.
 */
export async function preemptInstance(
  ctx: Ctx,
  instanceId: string,
  opts: { reason?: string; noticeMs?: number } = {},
): Promise<void> {
  requireOperator(ctx);
  await withTx(ctx.tx, async (tx) => {
    const now = nowOf(ctx);
    const [inst] = await tx.select().from(instances).where(eq(instances.id, instanceId)).for("update");
    if (!inst) throw new NotFoundError("Instance");
    if (inst.pricingModel !== "spot") {
      throw new InvalidStateError("Only spot instances can be preempted", {
        from: inst.state,
        to: "preempting",
      });
    }
    if (inst.state !== "running") {
      throw new InvalidStateError(
        `Only a running spot instance can be preempted; this one is ${inst.state}`,
        {
          from: inst.state,
          to: "preempting",
        },
      );
    }
    await applyTransition(tx, ctx, {
      id: inst.id,
      orgId: inst.orgId,
      from: "running",
      to: "preempting",
      reason: opts.reason ?? why("spot_reclaimed"),
      patch: {
        stateDeadline: new Date(now.getTime() + (opts.noticeMs ?? SPOT_NOTICE_MS)),
        stateReason: "Preempted: the spot capacity was reclaimed",
      },
    });
  });
}

/**
 * The organization's own lower-priority work that admission chose to preempt for a higher-priority launch or
 * start (its quota policy, lib/quotas/policy.ts): running → preempting with the spot notice, marked with the
 * instance it made room for, in the caller's transaction (under the quota lock, the rows locked by admission).
 * At the notice's end it stops; it does not go back to the queue. Returns how many got the notice.
 */
export async function preemptForPriority(
  tx: Tx,
  ctx: Pick<Ctx, "actor" | "now">,
  ids: string[],
  forInstance: { id: string; name: string; priority: number },
  noticeMs: number = SPOT_NOTICE_MS,
): Promise<number> {
  if (ids.length === 0) return 0;
  const reason = why("preempted_for_priority", {
    name: forInstance.name,
    priority: forInstance.priority,
    seconds: Math.round(noticeMs / 1000),
  });
  const moved = await giveNotice(tx, ctx, ids, {
    reason,
    stateReason: reason.text,
    noticeMs,
    patch: { preemptedFor: forInstance.id },
  });
  if (moved.size !== ids.length) {
    // Admission locked these rows and read them running: anything else is a bug, and the launch must not
    // go through with less room than it was admitted for.
    throw new Error(`preemptForPriority: ${moved.size} of ${ids.length} instances got the notice`);
  }
  return moved.size;
}
