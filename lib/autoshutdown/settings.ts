import "server-only";
import { and, eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { inTx } from "@/lib/db/client";
import { type AutoShutdown, instanceEvents, instances } from "@/lib/db/schema";
import { validateAutoShutdown } from "./validate";

function describe(s: AutoShutdown): string {
  const parts = [
    s.idle ? `idle ${s.idle.minutes} min under ${s.idle.utilizationBelowPct} %` : "no idle stop",
    s.maxRuntimeMinutes ? `max runtime ${s.maxRuntimeMinutes} min` : null,
    s.schedule ? `schedule ${s.schedule.cron} (${s.schedule.timeZone})` : null,
  ];
  return parts.filter(Boolean).join(", ");
}

/**
 * Change the auto-shutdown settings of an existing instance (members and up), within the policy's limits
 * for members, like at launch. Pending warnings whose rule changed are cancelled by the next pass.
 */
export async function setInstanceAutoShutdown(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  settings: AutoShutdown | null,
): Promise<AutoShutdown> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org, role } = await requireOrgAccess(c, orgSlug, "member");
    if (!/^[0-9a-f-]{36}$/i.test(instanceId)) throw new NotFoundError("Instance");
    const [inst] = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.id, instanceId), eq(instances.orgId, org.id)))
      .for("update");
    if (!inst) throw new NotFoundError("Instance");
    const effective = await validateAutoShutdown(
      tx,
      org.id,
      inst.projectId,
      inst.gpuModelId,
      settings,
      role,
      inst.kind,
    );
    await tx.update(instances).set({ autoShutdown: effective }).where(eq(instances.id, inst.id));
    // Not a transition: an event so the instance timeline shows who changed its shutdown rules.
    await tx.insert(instanceEvents).values({
      orgId: org.id,
      instanceId: inst.id,
      fromState: inst.state,
      toState: inst.state,
      reason: `auto-shutdown settings changed: ${describe(effective)}`,
      actorUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      actorKind: ctx.actor.kind === "user" && ctx.actor.tokenOrgId ? "api" : "user",
      at: now,
    });
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "instance.autoshutdown_changed",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name, before: inst.autoShutdown, after: effective },
      at: now,
    });
    return effective;
  });
}
