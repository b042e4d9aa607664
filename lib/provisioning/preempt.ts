import "server-only";
import { eq } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { type Ctx, InvalidStateError, NotFoundError, nowOf } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { why } from "./event-reasons";
import { applyTransition } from "./lifecycle";
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
