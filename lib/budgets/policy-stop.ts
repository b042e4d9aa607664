import "server-only";
import { and, eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import type { Actor } from "@/lib/core";
import type { Tx } from "@/lib/db/client";
import { gpuModels, instances } from "@/lib/db/schema";
import { applyTransition, getProvider, type Instance } from "@/lib/provisioning";

/** Automatic stops are made by the "policy" actor: instance events show actor_kind "policy". */
export const POLICY_ACTOR: Actor = { kind: "system", name: "policy" };

/**
 * Stop a running instance for a cost rule (budget exceeded, auto-shutdown): the same running → stopping
 * transition as a user's stop, with the provider's graceful-stop delay, the reason on the instance timeline
 * and an audit row, in the caller's transaction. lib/provisioning's stop() is the user-facing verb (it checks
 * the caller's role in the organization, which a worker does not have), so this uses its transition and
 * provider exports directly. Returns false when the instance is no longer running.
 */
export async function policyStop(
  tx: Tx,
  now: Date,
  input: { orgId: string; instanceId: string; reason: string; audit: Record<string, unknown> },
): Promise<Instance | null> {
  const [inst] = await tx
    .select()
    .from(instances)
    .where(and(eq(instances.id, input.instanceId), eq(instances.orgId, input.orgId)))
    .for("update");
  if (inst?.state !== "running") return null;
  const [model] = await tx.select().from(gpuModels).where(eq(gpuModels.id, inst.gpuModelId));
  const delay = getProvider().stopDelayMs({
    id: inst.id,
    orgId: inst.orgId,
    name: inst.name,
    kind: inst.kind,
    workload: inst.workload,
    regionCode: inst.regionCode,
    gpuModelId: inst.gpuModelId,
    gpuCount: inst.gpuCount,
    slicesPerGpu: inst.slicesPerGpu,
    gpuMemoryGib: model?.memoryGib ?? 0,
    tdpWatts: model?.tdpWatts ?? 300,
    pricingModel: inst.pricingModel,
    imageId: inst.imageId,
    nodeId: inst.nodeId,
    simSeed: inst.simSeed,
    startedAt: inst.startedAt,
  });
  await applyTransition(
    tx,
    { actor: POLICY_ACTOR, now: () => now },
    {
      id: inst.id,
      orgId: inst.orgId,
      from: "running",
      to: "stopping",
      reason: input.reason,
      patch: { stateDeadline: new Date(now.getTime() + delay), stateReason: input.reason },
    },
  );
  await writeAudit(tx, POLICY_ACTOR, {
    orgId: inst.orgId,
    action: "instance.stopped",
    targetType: "instance",
    targetId: inst.id,
    data: { name: inst.name, reason: input.reason, ...input.audit },
    at: now,
  });
  return inst;
}
