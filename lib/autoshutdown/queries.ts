import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { type AutoShutdown, instances, shutdownWarnings } from "@/lib/db/schema";
import { type EffectivePolicy, resolvePolicy } from "./policies";
import { withDefaults } from "./validate";

export type PendingShutdown = {
  warningId: string;
  rule: "idle" | "max_runtime" | "schedule";
  reason: string;
  dueAt: Date;
  /** When the stop will happen (after the warning lead and any snooze). */
  stopsAt: Date;
  snoozeCount: number;
  canSnooze: boolean;
};

export type AutoShutdownStatus = {
  settings: AutoShutdown;
  policy: EffectivePolicy;
  pending: PendingShutdown[];
};

/** An instance's auto-shutdown settings, the policy that governs it and any pending stop (instance page). */
export async function autoShutdownStatus(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
): Promise<AutoShutdownStatus> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  if (!/^[0-9a-f-]{36}$/i.test(instanceId)) throw new NotFoundError("Instance");
  const [inst] = await exec
    .select()
    .from(instances)
    .where(and(eq(instances.id, instanceId), eq(instances.orgId, org.id)));
  if (!inst) throw new NotFoundError("Instance");
  const policy = await resolvePolicy(exec, org.id, inst.projectId, inst.gpuModelId);
  const rows = await exec
    .select()
    .from(shutdownWarnings)
    .where(eq(shutdownWarnings.instanceId, inst.id))
    .orderBy(desc(shutdownWarnings.createdAt))
    .limit(20);
  const now = nowOf(ctx);
  return {
    settings: withDefaults(inst.autoShutdown, policy, inst.kind),
    policy,
    pending: rows
      .filter((w) => !w.actedAt && !w.cancelledAt && inst.state === "running")
      .map((w) => ({
        warningId: w.id,
        rule: w.rule,
        reason: w.reason,
        dueAt: w.dueAt,
        stopsAt: new Date(Math.max(w.actsAt.getTime(), w.snoozedUntil?.getTime() ?? 0, now.getTime())),
        snoozeCount: w.snoozeCount,
        canSnooze: policy.allowSnooze && w.snoozeCount < policy.maxSnoozes,
      })),
  };
}
