import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, type Tx } from "@/lib/db/client";
import { budgets, DEFAULT_BUDGET_THRESHOLDS, memberships, projects, services } from "@/lib/db/schema";
import { BUDGET_FIELD_MESSAGES } from "./field-messages";
import { type BudgetInput, type BudgetValues, budgetSchema } from "./schemas";

export type Budget = typeof budgets.$inferSelect;

/**
 * A check on the locked row before an update or delete changes it (the API's If-Match: it throws when the
 * budget is no longer the one the caller read, so a lost update is refused inside the same transaction).
 */
export type Precondition = { precondition?: (current: Budget) => void };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_TAKEN = BUDGET_FIELD_MESSAGES.nameTaken;

type Scope = { projectId: string | null; serviceId: string | null };

/**
 * Resolve the project and the service (a live one of the organization, by id or name; its budget takes the
 * service's project as its scope) and check recipients belong to the organization; field errors otherwise.
 */
async function resolve(tx: Tx, orgId: string, v: BudgetValues): Promise<Scope> {
  let projectId: string | null = null;
  if (v.project) {
    const [p] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(
        and(
          eq(projects.orgId, orgId),
          UUID.test(v.project) ? eq(projects.id, v.project) : eq(projects.slug, v.project),
        ),
      );
    if (!p) throw ValidationError.field("project", BUDGET_FIELD_MESSAGES.projectUnknown);
    projectId = p.id;
  }
  let serviceId: string | null = null;
  if (v.service) {
    const [svc] = await tx
      .select({ id: services.id, projectId: services.projectId })
      .from(services)
      .where(
        and(
          eq(services.orgId, orgId),
          isNull(services.deletedAt),
          UUID.test(v.service) ? eq(services.id, v.service) : eq(services.name, v.service),
        ),
      );
    if (!svc) throw ValidationError.field("service", BUDGET_FIELD_MESSAGES.serviceUnknown);
    if (projectId && projectId !== svc.projectId) {
      throw ValidationError.field("service", BUDGET_FIELD_MESSAGES.serviceOtherProject);
    }
    projectId = svc.projectId;
    serviceId = svc.id;
  }
  const ids = [...new Set(v.recipientUserIds)];
  if (ids.length > 0) {
    const found = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), inArray(memberships.userId, ids)));
    if (found.length !== ids.length) {
      throw ValidationError.field("recipientUserIds", BUDGET_FIELD_MESSAGES.recipientsNotMembers);
    }
  }
  return { projectId, serviceId };
}

function values(v: BudgetValues, { projectId, serviceId }: Scope) {
  return {
    name: v.name,
    projectId,
    serviceId,
    amountUsd: v.amountUsd.toFixed(2),
    thresholds: v.thresholds ?? DEFAULT_BUDGET_THRESHOLDS,
    recipientUserIds: [...new Set(v.recipientUserIds)],
    recipientEmails: [...new Set(v.recipientEmails)],
    actionAt100: v.actionAt100,
    graceMinutes: v.graceMinutes,
  };
}

function isNameConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e?.cause ?? e;
  return pg?.code === "23505" && pg?.constraint === "budgets_org_name_key";
}

/** Create a monthly budget for the organization or one project (admins and owners). */
export async function createBudget(ctx: Ctx, orgSlug: string, raw: BudgetInput): Promise<Budget> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a weaker role's bad body is a refusal, not a field list.
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const v = parseInput(budgetSchema, raw);
    const scope = await resolve(tx, org.id, v);
    const [row] = await tx
      .insert(budgets)
      .values({
        orgId: org.id,
        ...values(v, scope),
        createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw ValidationError.field("name", NAME_TAKEN);
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "budget.created",
      targetType: "budget",
      targetId: row.id,
      data: { name: row.name, amountUsd: row.amountUsd, actionAt100: row.actionAt100, ...scope },
      at: now,
    });
    return row;
  });
}

async function loadBudget(tx: Tx, orgId: string, id: string, lock = false): Promise<Budget> {
  if (!UUID.test(id)) throw new NotFoundError("Budget");
  const q = tx
    .select()
    .from(budgets)
    .where(and(eq(budgets.id, id), eq(budgets.orgId, orgId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFoundError("Budget");
  return row;
}

/** Replace a budget's settings (admins and owners). Alerts already sent this month stay sent. */
export async function updateBudget(
  ctx: Ctx,
  orgSlug: string,
  budgetId: string,
  raw: BudgetInput,
  opts: Precondition = {},
): Promise<Budget> {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const before = await loadBudget(tx, org.id, budgetId, true);
    opts.precondition?.(before);
    const v = parseInput(budgetSchema, raw);
    const scope = await resolve(tx, org.id, v);
    let row: Budget | undefined;
    try {
      // A savepoint, so a name clash is reported as a field error and the transaction stays usable.
      [row] = await tx.transaction((sp) =>
        sp
          .update(budgets)
          .set({ ...values(v, scope), updatedAt: now })
          .where(eq(budgets.id, before.id))
          .returning(),
      );
    } catch (err) {
      if (isNameConflict(err)) throw ValidationError.field("name", NAME_TAKEN);
      throw err;
    }
    if (!row) throw new NotFoundError("Budget");
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "budget.updated",
      targetType: "budget",
      targetId: row.id,
      data: {
        name: row.name,
        before: { amountUsd: before.amountUsd, actionAt100: before.actionAt100 },
        after: { amountUsd: row.amountUsd, actionAt100: row.actionAt100 },
      },
      at: now,
    });
    return row;
  });
}

export async function deleteBudget(
  ctx: Ctx,
  orgSlug: string,
  budgetId: string,
  opts: Precondition = {},
): Promise<void> {
  const now = nowOf(ctx);
  await inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const before = await loadBudget(tx, org.id, budgetId, true);
    opts.precondition?.(before);
    await tx.delete(budgets).where(eq(budgets.id, before.id));
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "budget.deleted",
      targetType: "budget",
      targetId: before.id,
      data: { name: before.name, amountUsd: before.amountUsd },
      at: now,
    });
  });
}

/** One budget of the organization (any member role may read budgets). */
export async function getBudget(ctx: Ctx, orgSlug: string, budgetId: string): Promise<Budget> {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "viewer");
    return loadBudget(tx, org.id, budgetId);
  });
}

export async function listBudgetRows(tx: Tx, orgId: string): Promise<Budget[]> {
  return tx.select().from(budgets).where(eq(budgets.orgId, orgId)).orderBy(asc(budgets.name));
}
