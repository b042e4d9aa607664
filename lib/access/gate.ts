import "server-only";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import { type Ctx, ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { memberships, organizations } from "@/lib/db/schema";
import { type OrgRole, roleAtLeast } from "./roles";

export type OrgSummary = { id: string; slug: string; name: string; allowedJurisdictions: string[] };
export type OrgAccess = { org: OrgSummary; role: OrgRole; userId: string };

/**
 * The one gate for tenant data: resolves the organization by slug for the acting user. Not a member (or a
 * token of another organization) → NotFound, so another tenant's URL looks like nothing is there; a member
 * whose role is below min → Forbidden.
 */
export async function requireOrgAccess(
  ctx: Ctx,
  orgSlug: string,
  min: OrgRole = "viewer",
): Promise<OrgAccess> {
  if (ctx.actor.kind !== "user") throw new UnauthorizedError();
  const access = judgeOrgAccess(ctx, await readOrgAccess(ctx, orgSlug), min);
  return { ...access, userId: ctx.actor.userId };
}

/**
 * The gate for verbs that the worker's own actors also run (the services autoscaler launching and ending a
 * service's replicas): a user goes through requireOrgAccess unchanged; a system actor — only ever built by
 * server code, never from a request — acts as a member of the organization it names.
 */
export async function requireOrgAccessOrSystem(
  ctx: Ctx,
  orgSlug: string,
  min: OrgRole = "viewer",
): Promise<Omit<OrgAccess, "userId">> {
  if (ctx.actor.kind === "user") return requireOrgAccess(ctx, orgSlug, min);
  return judgeOrgAccess(ctx, await readOrgAccess(ctx, orgSlug), min);
}

/** The columns of the gate's read (orgAccessSql), as a statement that folds it in returns them. */
export type OrgAccessRow = {
  org_id: string;
  org_slug: string;
  org_name: string;
  org_allowed_jurisdictions: string[];
  org_role: OrgRole;
};

/**
 * The gate's read as SQL, for a hot path that reads more in the same statement (launch reads its facts with
 * it): at most one row, OrgAccessRow's columns, and none when the slug names nothing the actor belongs to or a
 * token's organization is another (a system actor — requireOrgAccessOrSystem's — reads the organization as a
 * member). Null: the slug cannot name
 * an organization (then nothing needs reading). The caller judges the row with judgeOrgAccess.
 */
export function orgAccessSql(ctx: Ctx, orgSlug: string): SQL | null {
  // No slug holds a control character or runs this long; such a URL names nothing (and a NUL would make
  // PostgreSQL fail the query instead of finding no row).
  if (orgSlug.length > 200 || hasControlChar(orgSlug)) return null;
  const columns = sql`o.id as org_id, o.slug as org_slug, o.name as org_name,
    o.allowed_jurisdictions as org_allowed_jurisdictions`;
  if (ctx.actor.kind !== "user") {
    return sql`select ${columns}, 'member'::text as org_role from organizations o where o.slug = ${orgSlug}`;
  }
  // A token's organization in the statement too: a statement that reads more with it (the chart) reads nothing
  // for a token of another organization, not only refuses it after reading.
  const token = ctx.actor.tokenOrgId;
  return sql`select ${columns}, m.role::text as org_role from organizations o
    join memberships m on m.org_id = o.id and m.user_id = ${ctx.actor.userId}::uuid
    where o.slug = ${orgSlug}${token ? sql` and o.id = ${token}::uuid` : sql``}`;
}

/** The gate's verdict on what orgAccessSql read (undefined: no row). */
export function judgeOrgAccess(
  ctx: Ctx,
  row: OrgAccessRow | undefined,
  min: OrgRole,
): Omit<OrgAccess, "userId"> {
  if (!row) throw new NotFoundError("Organization");
  const org: OrgSummary = {
    id: row.org_id,
    slug: row.org_slug,
    name: row.org_name,
    allowedJurisdictions: row.org_allowed_jurisdictions,
  };
  if (ctx.actor.kind !== "user") return { org, role: "member" };
  if (ctx.actor.tokenOrgId && ctx.actor.tokenOrgId !== org.id) throw new NotFoundError("Organization");
  // A read-only token reads like a viewer whatever its user's role: everything beyond needs a write token.
  if (ctx.actor.tokenScope === "read" && min !== "viewer") {
    throw new ForbiddenError("This API token is read-only; create a write token for this", {
      reason: "token_read_only",
    });
  }
  if (!roleAtLeast(row.org_role, min)) throw new ForbiddenError(`This needs the ${min} role or higher`);
  return { org, role: row.org_role };
}

/** Every request reads the gate: a prepared statement (parsed once per connection, planned once). */
async function readOrgAccess(ctx: Ctx, orgSlug: string): Promise<OrgAccessRow | undefined> {
  const query = orgAccessSql(ctx, orgSlug);
  if (!query) return undefined;
  const res = await executePrepared<OrgAccessRow>(readDb(ctx), sql`${query} limit 1`);
  return res.rows[0];
}

function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/** Organizations the acting user belongs to, for the switcher and the landing redirect. */
export async function listMyOrganizations(ctx: Ctx): Promise<Array<OrgSummary & { role: OrgRole }>> {
  if (ctx.actor.kind !== "user") return [];
  const exec = readDb(ctx);
  return exec
    .select({
      id: organizations.id,
      slug: organizations.slug,
      name: organizations.name,
      allowedJurisdictions: organizations.allowedJurisdictions,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, ctx.actor.userId))
    .orderBy(asc(organizations.name));
}

export function requireOperator(ctx: Ctx): void {
  if (ctx.actor.kind === "system") return;
  if (!ctx.actor.isOperator) throw new ForbiddenError("This needs the platform operator role");
}
