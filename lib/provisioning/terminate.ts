import "server-only";
import { requireOrgAccess, requireOrgAccessOrSystem } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, nowOf } from "@/lib/core";
import { inTx } from "@/lib/db/client";
import { why } from "./event-reasons";
import { applyTransition } from "./lifecycle";
import { loadOrgInstance } from "./load";
import { providerInstanceOf } from "./provider-instance";
import { getProvider } from "./providers";
import { canTransition } from "./states";
import type { Instance } from "./types";

/**
 * Terminate: → terminating now (GPUs released at once), → terminated after the provider's teardown delay.
 * A queued instance has nothing to tear down, so terminating it cancels it.
 */
export async function terminate(ctx: Ctx, orgSlug: string, instanceId: string): Promise<Instance> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccessOrSystem(c, orgSlug, "member");
    const inst = await loadOrgInstance(tx, org.id, instanceId, true);
    if (inst.state === "queued") {
      await applyTransition(tx, c, {
        id: inst.id,
        orgId: org.id,
        from: "queued",
        to: "cancelled",
        reason: why("terminated_while_queued"),
      });
    } else {
      if (!canTransition(inst.state, "terminating")) {
        throw new InvalidStateError(`This instance is ${inst.state} and cannot be terminated`, {
          from: inst.state,
          to: "terminating",
        });
      }
      const delay = getProvider(inst.regionCode).terminateDelayMs(await providerInstanceOf(tx, inst));
      await applyTransition(tx, c, {
        id: inst.id,
        orgId: org.id,
        from: inst.state,
        to: "terminating",
        reason: why("termination_requested"),
        patch: { stateDeadline: new Date(now.getTime() + delay) },
      });
    }
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "instance.terminated",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name, from: inst.state },
      at: now,
    });
    return loadOrgInstance(tx, org.id, inst.id);
  });
}

/** Cancel a queued launch: it never ran, so it ends as cancelled (not terminated). */
export async function cancel(ctx: Ctx, orgSlug: string, instanceId: string): Promise<Instance> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const inst = await loadOrgInstance(tx, org.id, instanceId, true);
    if (inst.state !== "queued") {
      throw new InvalidStateError(`Only a queued instance can be cancelled; this one is ${inst.state}`, {
        from: inst.state,
        to: "cancelled",
      });
    }
    await applyTransition(tx, c, {
      id: inst.id,
      orgId: org.id,
      from: "queued",
      to: "cancelled",
      reason: why("cancelled_while_queued"),
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "instance.cancelled",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name },
      at: now,
    });
    return loadOrgInstance(tx, org.id, inst.id);
  });
}
