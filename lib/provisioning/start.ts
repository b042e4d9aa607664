import "server-only";
import { eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { assertBudgetAllowsLaunch } from "@/lib/budgets";
import { type Ctx, ForbiddenError, InvalidStateError, nowOf } from "@/lib/core";
import { inReadCommittedTx, type Tx } from "@/lib/db/client";
import { regions } from "@/lib/db/schema";
import { assertNotSuspended, assertQuotaAdmits, lockQuota } from "@/lib/quotas";
import { why } from "./event-reasons";
import { applyTransition } from "./lifecycle";
import { loadOrgInstance } from "./load";
import { currentPrice, loadOffering } from "./offerings";
import { preemptForPriority } from "./preempt";
import { reservationRoom } from "./reservations";
import type { Instance } from "./types";

/**
 * Start a stopped (or preempted, not auto-recovering) instance again: back to the queue, with everything a
 * launch checks checked anew, since any of it may have changed while it was stopped: the quota (a stopped
 * instance does not hold any), the organization's data-residency policy and the region, a current price for
 * its pricing model (a retired price would otherwise bill $0), and room in its reservation.
 */
export async function start(ctx: Ctx, orgSlug: string, instanceId: string): Promise<Instance> {
  return inReadCommittedTx(ctx, async (c) => {
    const { tx } = c;
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
    await assertStillOffered(tx, org, inst, now);
    await lockQuota(tx, { orgId: org.id, gpuModelId: inst.gpuModelId, regionCode: inst.regionCode });
    const offering = await loadOffering(tx, inst.instanceTypeId);
    const admitted = await assertQuotaAdmits(tx, {
      orgId: org.id,
      projectId: inst.projectId,
      gpuModelId: inst.gpuModelId,
      gpuModelName: offering?.gpuModelName ?? inst.gpuModelId,
      regionCode: inst.regionCode,
      slices: inst.gpuCount * inst.slicesPerGpu,
      priority: inst.priority,
      instanceId: inst.id,
    });
    await applyTransition(tx, c, {
      id: inst.id,
      orgId: org.id,
      from: inst.state,
      to: "queued",
      reason: why("start_requested"),
      patch: {
        queuedAt: now,
        nodeId: null,
        stateDeadline: null,
        stateReason: null,
        connection: null,
        preemptedFor: null,
      },
    });
    // Its organization's policy admitted it by preempting lower-priority work of its own: notice now.
    await preemptForPriority(tx, c, admitted.preempt, inst);
    if (inst.pricingModel === "reserved_1y" || inst.pricingModel === "reserved_1m") {
      // Counted now that it is queued again (and under the quota lock, as launch does).
      const room = await reservationRoom(tx, {
        orgId: org.id,
        gpuModelId: inst.gpuModelId,
        regionCode: inst.regionCode,
        now,
      });
      if ((room.get(inst.pricingModel) ?? -1) < 0) {
        throw new InvalidStateError(
          `Your organization's reservation for ${offering?.gpuModelName ?? inst.gpuModelId} in ${inst.regionCode} ` +
            "has no unused GPUs left (or has ended); launch it on-demand or spot instead",
        );
      }
    }
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

async function assertStillOffered(
  tx: Tx,
  org: { allowedJurisdictions: string[] },
  inst: Instance,
  now: Date,
): Promise<void> {
  const [region] = await tx.select().from(regions).where(eq(regions.code, inst.regionCode));
  if (!region?.active) {
    throw new InvalidStateError(
      `The region ${inst.regionCode} is closed; this instance cannot start there again`,
    );
  }
  if (org.allowedJurisdictions.length > 0 && !org.allowedJurisdictions.includes(region.jurisdiction)) {
    throw new ForbiddenError(
      `Your organization's data-residency policy allows only ${org.allowedJurisdictions.join(", ")}; ` +
        `${region.code} is in ${region.jurisdiction}, so this instance cannot start there again`,
    );
  }
  if (!(await currentPrice(tx, inst.instanceTypeId, inst.regionCode, inst.pricingModel, now))) {
    throw new InvalidStateError(
      `${inst.instanceTypeId} is no longer offered ${inst.pricingModel.replace("_", "-")} in ${inst.regionCode}; ` +
        "launch a new instance from the catalog",
    );
  }
}
