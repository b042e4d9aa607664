import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Executor, inTx } from "@/lib/db/client";
import { serviceReplicas, services } from "@/lib/db/schema";
import { recordServiceEvent } from "./events";
import { SERVICE_FIELD_MESSAGES as M } from "./field-messages";
import { SERVICE_NAME, scalingUpdateSchema } from "./schemas";
import type { Service } from "./types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A live service of the organization by id or name; another tenant's (or a deleted one) is a NotFound. */
export async function loadOrgService(
  exec: Executor,
  orgId: string,
  idOrName: string,
  forUpdate = false,
): Promise<Service> {
  // Neither an id nor a possible name (a NUL byte would even fail in PostgreSQL): no such service.
  if (!UUID.test(idOrName) && !SERVICE_NAME.test(idOrName)) throw new NotFoundError("Service");
  const q = exec
    .select()
    .from(services)
    .where(
      and(
        eq(services.orgId, orgId),
        isNull(services.deletedAt),
        UUID.test(idOrName) ? eq(services.id, idOrName) : eq(services.name, idOrName),
      ),
    );
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw new NotFoundError("Service");
  return row;
}

/** Edit the scaling settings; the merged settings are validated again (min ≤ max). Nothing written on refusal. */
export async function updateServiceScaling(
  ctx: Ctx,
  orgSlug: string,
  idOrName: string,
  raw: unknown,
  opts: { precondition?: (current: Service) => void } = {},
): Promise<Service> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const patch = parseInput(scalingUpdateSchema, raw);
    const svc = await loadOrgService(tx, org.id, idOrName, true);
    // The API's If-Match: checked on the locked row, so a stale read is refused with nothing written.
    opts.precondition?.(svc);
    const spec = { ...svc.spec, ...patch };
    if (spec.maxReplicas < spec.minReplicas) throw new ValidationError({ maxReplicas: [M.maxBelowMin] });
    const desired = Math.min(spec.maxReplicas, Math.max(spec.minReplicas, svc.desiredReplicas));
    const [row] = await tx
      .update(services)
      .set({ spec, desiredReplicas: desired, updatedAt: now })
      .where(eq(services.id, svc.id))
      .returning();
    await recordServiceEvent(tx, {
      orgId: org.id,
      serviceId: svc.id,
      at: now,
      code: "settings_changed",
      params: { min: spec.minReplicas, max: spec.maxReplicas, target: spec.target, metric: spec.metric },
    });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "service.scaling_changed",
      targetType: "service",
      targetId: svc.id,
      data: patch,
      at: now,
    });
    return row as Service;
  });
}

/**
 * Delete a service: the gateway stops routing to it at once (deleted_at), and its replicas are handed to the
 * autoscaler's clean-up, which terminates their instances through lib/provisioning like a scale-down.
 */
export async function deleteService(
  ctx: Ctx,
  orgSlug: string,
  idOrName: string,
  opts: { precondition?: (current: Service) => void } = {},
): Promise<void> {
  await inTx(ctx, async (c) => {
    const { tx } = c;
    const now = nowOf(ctx);
    const { org } = await requireOrgAccess(c, orgSlug, "member");
    const svc = await loadOrgService(tx, org.id, idOrName, true);
    // The API's If-Match, on the locked row: deleting a service someone changed since it was read is a 412.
    opts.precondition?.(svc);
    await tx
      .update(services)
      .set({ deletedAt: now, desiredReplicas: 0, updatedAt: now })
      .where(eq(services.id, svc.id));
    await recordServiceEvent(tx, { orgId: org.id, serviceId: svc.id, at: now, code: "deleted" });
    await writeAudit(tx, c.actor, {
      orgId: org.id,
      action: "service.deleted",
      targetType: "service",
      targetId: svc.id,
      data: { name: svc.name },
      at: now,
    });
  });
}

/** Replicas not yet ended, in ordinal order. */
export async function activeReplicas(exec: Executor, serviceId: string) {
  return exec
    .select()
    .from(serviceReplicas)
    .where(and(eq(serviceReplicas.serviceId, serviceId), isNull(serviceReplicas.endedAt)))
    .orderBy(serviceReplicas.ordinal);
}
