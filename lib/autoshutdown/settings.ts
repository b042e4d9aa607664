import "server-only";
import { and, eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { type AutoShutdown, instances } from "@/lib/db/schema";
import { requireOrgAccess } from "@/lib/tenancy";
import { validateAutoShutdown } from "./validate";

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
  return withTx(ctx.tx, async (tx) => {
    const { org, role } = await requireOrgAccess({ ...ctx, tx }, orgSlug, "member");
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
