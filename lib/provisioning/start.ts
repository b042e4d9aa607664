import "server-only";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { assertBudgetAllowsLaunch } from "@/lib/budgets";
import { type Ctx, InvalidStateError, nowOf } from "@/lib/core";
import { withReadCommittedTx } from "@/lib/db/client";
import { assertNotSuspended, assertQuotaAdmits, lockQuota } from "@/lib/quotas";
import { applyTransition } from "./lifecycle";
import { loadOrgInstance } from "./load";
import { loadOffering } from "./offerings";
import type { Instance } from "./types";

/**
 * Start a stopped (or preempted, not auto-recovering) instance again: back to the queue, with the quota checked
 * anew because a stopped instance does not hold quota.
 */
export async function start(ctx: Ctx, orgSlug: string, instanceId: string): Promise<Instance> {
  return withReadCommittedTx(ctx.tx, async (tx) => {
    const c: Ctx = { ...ctx, tx };
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const inst = await loadOrgInstance(tx, org.id, instanceId, true);
    if (inst.state !== "stopped" && inst.state !== "preempted") {
      throw new InvalidStateError(
        `Only a stopped or preempted instance can be started; this one is ${inst.state}`,
        {
          from: inst.state,
          to: "queued",
        },
      );
    }
    // Starting again is new spend: a used-up budget that blocks launches blocks this too.
    await assertNotSuspended(tx, org.id);
    await assertBudgetAllowsLaunch(tx, org.id, inst.projectId, now);
    await lockQuota(tx, { orgId: org.id, gpuModelId: inst.gpuModelId, regionCode: inst.regionCode });
    const offering = await loadOffering(tx, inst.instanceTypeId);
    await assertQuotaAdmits(tx, {
      orgId: org.id,
      projectId: inst.projectId,
      gpuModelId: inst.gpuModelId,
      gpuModelName: offering?.gpuModelName ?? inst.gpuModelId,
      regionCode: inst.regionCode,
      slices: inst.gpuCount * inst.slicesPerGpu,
    });
    await applyTransition(tx, c, {
      id: inst.id,
      orgId: org.id,
      from: inst.state,
      to: "queued",
      reason: "Start requested; waiting for capacity",
      patch: { queuedAt: now, nodeId: null, stateDeadline: null, stateReason: null, connection: null },
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "instance.started",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name },
      at: now,
    });
    return loadOrgInstance(tx, org.id, inst.id);
  });
}
