import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import {
  type Ctx,
  ForbiddenError,
  fieldMessageWith,
  InvalidStateError,
  NotFoundError,
  nowOf,
  parseInput,
  ValidationError,
} from "@/lib/core";
import { inTx } from "@/lib/db/client";
import { instanceEvents, instances, shutdownWarnings } from "@/lib/db/schema";
import { AUTOSHUTDOWN_FIELD_MESSAGES } from "./field-messages";
import { resolvePolicy } from "./policies";
import { type SnoozeInput, snoozeSchema } from "./schemas";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Postpone the pending automatic stop(s) of a running instance by `minutes` from when they would act (or
 * from now, if later), where the policy allows: members and up, at most snoozeMinutesMax at a time and
 * maxSnoozes times per warning. Recorded in the audit log and on the instance timeline.
 */
export async function snooze(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  raw: SnoozeInput | number,
): Promise<{ snoozedUntil: Date }> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org, userId } = await requireOrgAccess(c, orgSlug, "member");
    if (!UUID.test(instanceId)) throw new NotFoundError("Instance");
    const [inst] = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.id, instanceId), eq(instances.orgId, org.id)))
      .for("update");
    if (!inst) throw new NotFoundError("Instance");
    // Validated after the gate and the lookup: a stranger's bad body is a 404, a viewer's a 403.
    const { minutes } = parseInput(snoozeSchema, typeof raw === "number" ? { minutes: raw } : raw);
    const policy = await resolvePolicy(tx, org.id, inst.projectId, inst.gpuModelId);
    if (!policy.allowSnooze || policy.maxSnoozes === 0) {
      throw new ForbiddenError(
        "Your organization's auto-shutdown policy does not allow postponing shutdowns",
      );
    }
    if (minutes > policy.snoozeMinutesMax) {
      throw ValidationError.field(
        "minutes",
        fieldMessageWith(AUTOSHUTDOWN_FIELD_MESSAGES.snoozeAbovePolicy, { max: policy.snoozeMinutesMax }),
      );
    }
    const pending = await tx
      .select()
      .from(shutdownWarnings)
      .where(
        and(
          eq(shutdownWarnings.instanceId, inst.id),
          isNull(shutdownWarnings.actedAt),
          isNull(shutdownWarnings.cancelledAt),
        ),
      )
      .for("update");
    if (inst.state !== "running" || pending.length === 0) {
      throw new InvalidStateError("No automatic shutdown is pending for this instance");
    }
    if (pending.some((w) => w.snoozeCount >= policy.maxSnoozes)) {
      throw new InvalidStateError(
        `This shutdown was already postponed ${policy.maxSnoozes} times, the most your organization allows`,
      );
    }
    let until = now;
    for (const w of pending) {
      const base = Math.max(now.getTime(), (w.snoozedUntil ?? w.actsAt).getTime());
      const next = new Date(base + minutes * 60_000);
      if (next > until) until = next;
      await tx
        .update(shutdownWarnings)
        .set({ snoozedUntil: next, snoozeCount: w.snoozeCount + 1 })
        .where(eq(shutdownWarnings.id, w.id));
    }
    const reason = `auto-shutdown postponed by ${minutes} min until ${until.toISOString().slice(0, 16).replace("T", " ")} UTC`;
    // Not a transition (the instance stays running): an event so the timeline shows who postponed what.
    await tx.insert(instanceEvents).values({
      orgId: org.id,
      instanceId: inst.id,
      fromState: "running",
      toState: "running",
      reason,
      actorUserId: userId,
      actorKind: ctx.actor.kind === "user" && ctx.actor.tokenOrgId ? "api" : "user",
      at: now,
    });
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "instance.autoshutdown_snoozed",
      targetType: "instance",
      targetId: inst.id,
      data: { name: inst.name, minutes, until: until.toISOString(), rules: pending.map((w) => w.rule) },
      at: now,
    });
    return { snoozedUntil: until };
  });
}
