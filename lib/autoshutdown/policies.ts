import "server-only";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Executor, inTx, readDb } from "@/lib/db/client";
import { autoShutdownPolicies, gpuModels, projects } from "@/lib/db/schema";
import { AUTOSHUTDOWN_FIELD_MESSAGES } from "./field-messages";
import { type PolicyInput, policySchema } from "./schemas";

export type AutoShutdownPolicy = typeof autoShutdownPolicies.$inferSelect;

/** What applies when no policy does: idle defaults filled by kind (notebooks 30 min), snooze up to 60 min. */
export const BUILT_IN_POLICY = {
  id: null,
  projectId: null,
  gpuModelId: null,
  defaultIdlePct: 5,
  defaultIdleMinutes: null,
  idleRequired: false,
  idleMinutesMax: null,
  idlePctMin: null,
  defaultMaxRuntimeMinutes: null,
  maxRuntimeMinutesMax: null,
  allowSnooze: true,
  snoozeMinutesMax: 60,
  maxSnoozes: 3,
  warningMinutes: 10,
} as const;
export type EffectivePolicy = Omit<
  AutoShutdownPolicy,
  "id" | "orgId" | "updatedBy" | "createdAt" | "updatedAt"
> & {
  id: string | null;
};
export const NOTEBOOK_IDLE_MINUTES = 30;

/** The most specific policy wins: project × GPU model, then project, then GPU model, then organization. */
export function pickPolicy(
  policies: AutoShutdownPolicy[],
  projectId: string,
  gpuModelId: string,
): EffectivePolicy {
  const rank = (p: AutoShutdownPolicy) =>
    (p.projectId === null || p.projectId === projectId) &&
    (p.gpuModelId === null || p.gpuModelId === gpuModelId)
      ? (p.projectId ? 2 : 0) + (p.gpuModelId ? 1 : 0)
      : -1;
  let best: AutoShutdownPolicy | null = null;
  for (const p of policies) if (rank(p) >= 0 && (!best || rank(p) > rank(best))) best = p;
  return best ?? { ...BUILT_IN_POLICY };
}

/** Whether the organization has any policy, as a boolean subquery (none: the built-in policy applies). */
export function hasPoliciesSql(orgId: string | SQL): SQL {
  return sql`exists (select 1 from auto_shutdown_policies where org_id = ${orgId})`;
}

export async function orgPolicies(exec: Executor, orgIds: string[]): Promise<AutoShutdownPolicy[]> {
  if (orgIds.length === 0) return [];
  return exec.select().from(autoShutdownPolicies).where(inArray(autoShutdownPolicies.orgId, orgIds));
}

export async function resolvePolicy(
  exec: Executor,
  orgId: string,
  projectId: string,
  gpuModelId: string,
): Promise<EffectivePolicy> {
  return pickPolicy(await orgPolicies(exec, [orgId]), projectId, gpuModelId);
}

/** The organization's policies (any role may read them: the launch form shows the limits). */
export async function listAutoShutdownPolicies(ctx: Ctx, orgSlug: string) {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  return readDb(ctx)
    .select({ policy: autoShutdownPolicies, projectName: projects.name, gpuModelName: gpuModels.name })
    .from(autoShutdownPolicies)
    .leftJoin(projects, eq(projects.id, autoShutdownPolicies.projectId))
    .leftJoin(gpuModels, eq(gpuModels.id, autoShutdownPolicies.gpuModelId))
    .where(eq(autoShutdownPolicies.orgId, org.id))
    .orderBy(sql`${autoShutdownPolicies.projectId} asc nulls first`, asc(autoShutdownPolicies.gpuModelId));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checked on the locked row before a write (the API's If-Match: a policy changed since the caller read it is
 * refused inside the same transaction); null where the scope has no policy yet.
 */
export type PolicyPrecondition = { precondition?: (current: AutoShutdownPolicy | null) => void };

/** One policy by id (any role, like the list); another organization's is NotFound. */
export async function getAutoShutdownPolicy(
  ctx: Ctx,
  orgSlug: string,
  policyId: string,
): Promise<AutoShutdownPolicy> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  if (!UUID.test(policyId)) throw new NotFoundError("Policy");
  const [row] = await readDb(ctx)
    .select()
    .from(autoShutdownPolicies)
    .where(and(eq(autoShutdownPolicies.id, policyId), eq(autoShutdownPolicies.orgId, org.id)));
  if (!row) throw new NotFoundError("Policy");
  return row;
}

/** Create or replace the policy of a scope (admins and owners). */
export async function setAutoShutdownPolicy(
  ctx: Ctx,
  orgSlug: string,
  raw: PolicyInput,
  opts: PolicyPrecondition = {},
): Promise<AutoShutdownPolicy> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a weaker role's bad body is a refusal, not a field list.
    const { org, userId } = await requireOrgAccess(c, orgSlug, "admin");
    const { project, ...v } = parseInput(policySchema, raw);
    let projectId: string | null = null;
    if (project) {
      const [p] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(
          and(
            eq(projects.orgId, org.id),
            UUID.test(project) ? eq(projects.id, project) : eq(projects.slug, project),
          ),
        );
      if (!p) throw ValidationError.field("project", AUTOSHUTDOWN_FIELD_MESSAGES.projectUnknown);
      projectId = p.id;
    }
    if (v.gpuModelId) {
      const [g] = await tx.select({ id: gpuModels.id }).from(gpuModels).where(eq(gpuModels.id, v.gpuModelId));
      if (!g) throw ValidationError.field("gpuModelId", AUTOSHUTDOWN_FIELD_MESSAGES.modelUnknown);
    }
    if (opts.precondition) {
      const [current] = await tx
        .select()
        .from(autoShutdownPolicies)
        .where(
          and(
            eq(autoShutdownPolicies.orgId, org.id),
            sql`${autoShutdownPolicies.projectId} is not distinct from ${projectId}`,
            sql`${autoShutdownPolicies.gpuModelId} is not distinct from ${v.gpuModelId ?? null}`,
          ),
        )
        .for("update");
      opts.precondition(current ?? null);
    }
    const values = { ...v, gpuModelId: v.gpuModelId ?? null, projectId, updatedBy: userId, updatedAt: now };
    const [row] = await tx
      .insert(autoShutdownPolicies)
      .values({ orgId: org.id, ...values, createdAt: now })
      .onConflictDoUpdate({
        target: [autoShutdownPolicies.orgId, autoShutdownPolicies.projectId, autoShutdownPolicies.gpuModelId],
        set: values,
      })
      .returning();
    if (!row) throw new Error("policy upsert returned nothing");
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "autoshutdown.policy_set",
      targetType: "auto_shutdown_policy",
      targetId: row.id,
      data: { ...v, projectId },
      at: now,
    });
    return row;
  });
}

export async function deleteAutoShutdownPolicy(
  ctx: Ctx,
  orgSlug: string,
  policyId: string,
  opts: PolicyPrecondition = {},
): Promise<void> {
  const now = nowOf(ctx);
  await inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    if (!UUID.test(policyId)) throw new NotFoundError("Policy");
    const mine = and(eq(autoShutdownPolicies.id, policyId), eq(autoShutdownPolicies.orgId, org.id));
    const [current] = await tx.select().from(autoShutdownPolicies).where(mine).for("update");
    if (!current) throw new NotFoundError("Policy");
    opts.precondition?.(current);
    const [row] = await tx.delete(autoShutdownPolicies).where(mine).returning();
    if (!row) throw new NotFoundError("Policy");
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "autoshutdown.policy_deleted",
      targetType: "auto_shutdown_policy",
      targetId: row.id,
      data: { projectId: row.projectId, gpuModelId: row.gpuModelId },
      at: now,
    });
  });
}
