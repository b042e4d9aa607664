import "server-only";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, nowOf } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { requireOrgAccess } from "@/lib/tenancy";
import { applyTransition } from "./lifecycle";
import { loadOrgInstance } from "./load";
import { providerInstanceOf } from "./provider-instance";
import { getProvider } from "./providers";
import type { Instance } from "./types";

/**
 * Stop a running instance: running → stopping now, → stopped when the provider's graceful-stop delay has
 * passed (the reconciler does that). The GPUs are held until stopped. Any member may stop any instance of the
 * organization: instances belong to projects, not to the person who launched them.
 */
export async function stop(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  reason?: string,
): Promise<Instance> {
  return withTx(ctx.tx, async (tx) => {
    const c: Ctx = { ...ctx, tx };
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const inst = await loadOrgInstance(tx, org.id, instanceId, true);
    if (inst.state !== "running") {
      throw new InvalidStateError(`Only a running instance can be stopped; this one is ${inst.state}`, {
        from: inst.state,
        to: "stopping",
      });
    }
    const delay = getProvider().stopDelayMs(await providerInstanceOf(tx, inst));
    await applyTransition(tx, c, {
      id: inst.id,
      orgId: org.id,
      from: "running",
      to: "stopping",
      reason: reason ?? "Stop requested",
      patch: { stateDeadline: new Date(now.getTime() + delay) },
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "instance.stopped",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name },
      at: now,
    });
    return loadOrgInstance(tx, org.id, inst.id);
  });
}
