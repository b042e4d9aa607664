import "server-only";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import { requireOperator, requireOrgAccess } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { type Paged, paged, pageParam, textFilter } from "@/lib/core";
import { type Executor, readDb } from "@/lib/db/client";
import { auditLog, organizations, users } from "@/lib/db/schema";

export const AUDIT_PAGE_SIZE = 50;

export type AuditRow = {
  id: number;
  at: Date;
  action: string;
  actorKind: string;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  data: Record<string, unknown> | null;
  org: { slug: string; name: string } | null;
};

const orgFilters = z.object({ action: textFilter, page: pageParam });
const platformFilters = orgFilters.extend({ org: textFilter });
export type AuditFilters = { action?: string; page?: number | string };
export type PlatformAuditFilters = AuditFilters & { org?: string };

/** One organization's audit log, newest first. Tenant admins and owners only. */
export async function listAuditLog(
  ctx: Ctx,
  orgSlug: string,
  filters: AuditFilters = {},
): Promise<Paged<AuditRow> & { actions: string[] }> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "admin");
  const f = orgFilters.parse(filters);
  const exec = readDb(ctx);
  const scope = eq(auditLog.orgId, org.id);
  const [page, actions] = await Promise.all([
    auditPage(exec, [scope, f.action ? eq(auditLog.action, f.action) : undefined], f.page),
    distinctActions(exec, scope),
  ]);
  return { ...page, actions };
}

/** Every organization's audit log and platform events, newest first. Platform operators only. */
export async function listPlatformAuditLog(
  ctx: Ctx,
  filters: PlatformAuditFilters = {},
): Promise<Paged<AuditRow> & { actions: string[] }> {
  requireOperator(ctx);
  const f = platformFilters.parse(filters);
  const exec = readDb(ctx);
  const [page, actions] = await Promise.all([
    auditPage(
      exec,
      [
        f.org ? eq(organizations.slug, f.org) : undefined,
        f.action ? eq(auditLog.action, f.action) : undefined,
      ],
      f.page,
    ),
    distinctActions(exec),
  ]);
  return { ...page, actions };
}

async function auditPage(
  exec: Executor,
  conds: Array<SQL | undefined>,
  page: number,
): Promise<Paged<AuditRow>> {
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    exec
      .select({
        id: auditLog.id,
        at: auditLog.at,
        action: auditLog.action,
        actorKind: auditLog.actorKind,
        actorEmail: users.email,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        data: auditLog.data,
        orgSlug: organizations.slug,
        orgName: organizations.name,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    exec
      .select({ n: count() })
      .from(auditLog)
      .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
      .where(where),
  ]);
  return paged(
    rows.map(({ orgSlug, orgName, ...r }) => ({
      ...r,
      org: orgSlug && orgName ? { slug: orgSlug, name: orgName } : null,
    })),
    total?.n ?? 0,
    page,
    AUDIT_PAGE_SIZE,
  );
}

/** The actions present in the log, for the filter's choices. */
async function distinctActions(exec: Executor, where?: SQL): Promise<string[]> {
  const rows = await exec
    .selectDistinct({ action: auditLog.action })
    .from(auditLog)
    .where(where)
    .orderBy(auditLog.action)
    .limit(200);
  return rows.map((r) => r.action);
}
