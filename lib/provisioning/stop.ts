import "server-only";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, nowOf } from "@/lib/core";
import { inTx, type Tx } from "@/lib/db/client";
import { type EventReason, why } from "./event-reasons";
import { applyTransition } from "./lifecycle";
import { loadOrgInstance } from "./load";
import { providerInstanceOf } from "./provider-instance";
import { getProvider } from "./providers";
import type { Instance } from "./types";

/**
 * running → stopping with the provider's graceful-stop delay (the reconciler completes it to stopped), the
 * reason on the timeline and an audit row, in tx. The one place a stop happens, whoever asks for it.
 */
async function stopRunning(
  tx: Tx,
  ctx: Ctx,
  inst: Instance,
  opts: { reason: string | EventReason; stateReason?: string; audit?: Record<string, unknown> },
): Promise<void> {
  const now = nowOf(ctx);
  const delay = getProvider(inst.regionCode).stopDelayMs(await providerInstanceOf(tx, inst));
  await applyTransition(tx, ctx, {
    id: inst.id,
    orgId: inst.orgId,
    from: "running",
    to: "stopping",
    reason: opts.reason,
    patch: {
      stateDeadline: new Date(now.getTime() + delay),
      ...(opts.stateReason ? { stateReason: opts.stateReason } : {}),
    },
  });
  await writeAudit(tx, ctx.actor, {
    orgId: inst.orgId,
    action: "instance.stopped",
    targetType: "instance",
    targetId: inst.id,
    data: {
      name: inst.name,
      reason: typeof opts.reason === "string" ? opts.reason : opts.reason.text,
      ...(opts.audit ?? {}),
    },
    at: now,
  });
}

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
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const inst = await loadOrgInstance(tx, org.id, instanceId, true);
    if (inst.state !== "running") {
      throw new InvalidStateError(`Only a running instance can be stopped; this one is ${inst.state}`, {
        from: inst.state,
        to: "stopping",
      });
    }
    await stopRunning(tx, c, inst, { reason: reason ?? why("stop_requested") });
    return loadOrgInstance(tx, org.id, inst.id);
  });
}

/**
 * A stop decided by a rule rather than a person (budget exceeded, auto-shutdown), for system actors in the
 * worker, which have no role in the organization. Returns the instance as it was, or null when it is no
 * longer running (someone stopped it first).
 */
export async function stopForPolicy(
  tx: Tx,
  ctx: Ctx,
  input: { orgId: string; instanceId: string; reason: string; audit?: Record<string, unknown> },
): Promise<Instance | null> {
  const inst = await loadOrgInstance(tx, input.orgId, input.instanceId, true);
  if (inst.state !== "running") return null;
  await stopRunning(tx, ctx, inst, { reason: input.reason, stateReason: input.reason, audit: input.audit });
  return inst;
}
