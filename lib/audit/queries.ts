import "server-only";
import { and, count, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator, requireOrgAccess } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { csvField, type Paged, paged, pageParam, textFilter } from "@/lib/core";
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
/** A day (YYYY-MM-DD, UTC) from the URL; anything else is no filter rather than an error page. */
const dayFilter = z.preprocess(
  (v) =>
    typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined,
  z.string().optional(),
);
const platformFilters = orgFilters.extend({
  org: textFilter,
  actor: textFilter,
  from: dayFilter,
  to: dayFilter,
});
export type AuditFilters = { action?: string; page?: number | string };
/** `actor`: a user's email or an actor kind (system, api); `from`/`to`: days, both included (UTC). */
export type PlatformAuditFilters = AuditFilters & {
  org?: string;
  actor?: string;
  from?: string;
  to?: string;
};

const DAY_MS = 86_400_000;

function platformConditions(f: z.output<typeof platformFilters>): Array<SQL | undefined> {
  return [
    f.org ? eq(organizations.slug, f.org) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.actor
      ? or(sql`lower(${users.email}) = lower(${f.actor})`, eq(auditLog.actorKind, f.actor.toLowerCase()))
      : undefined,
    f.from ? gte(auditLog.at, new Date(`${f.from}T00:00:00Z`)) : undefined,
    f.to ? lt(auditLog.at, new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS)) : undefined,
  ];
}

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
    auditPage(exec, platformConditions(f), f.page),
    distinctActions(exec),
  ]);
  return { ...page, actions };
}

const rowColumns = {
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
};

async function auditPage(
  exec: Executor,
  conds: Array<SQL | undefined>,
  page: number,
): Promise<Paged<AuditRow>> {
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    exec
      .select(rowColumns)
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
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
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

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "organization",
  "actor",
  "actor_kind",
  "action",
  "target_type",
  "target_id",
  "data",
] as const;
const CSV_BATCH = 1000;

/**
 * The platform audit log under the same filters as the page, oldest first, as CSV lines (header first), read
 * in keyset batches so a route can stream it. Operators only; checked before the first line.
 */
export async function exportPlatformAuditCsv(
  ctx: Ctx,
  filters: PlatformAuditFilters = {},
): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
  requireOperator(ctx);
  const f = platformFilters.parse(filters);
  const exec = readDb(ctx);
  const conds = platformConditions(f);
  async function* lines(): AsyncGenerator<string> {
    yield `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;
    let after = 0;
    for (;;) {
      const rows = await exec
        .select(rowColumns)
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
        .where(and(...conds, sql`${auditLog.id} > ${after}`))
        .orderBy(auditLog.id)
        .limit(CSV_BATCH);
      for (const r of rows) {
        const cells = [
          r.id,
          r.at,
          r.orgSlug,
          r.actorEmail,
          r.actorKind,
          r.action,
          r.targetType,
          r.targetId,
          r.data === null ? null : JSON.stringify(r.data),
        ];
        yield `${cells.map(csvField).join(",")}\r\n`;
      }
      const last = rows.at(-1);
      if (!last || rows.length < CSV_BATCH) return;
      after = last.id;
    }
  }
  const scope = [f.org, f.from, f.to].filter(Boolean).join("_");
  return { filename: `audit${scope ? `_${scope}` : ""}.csv`, lines: lines() };
}
