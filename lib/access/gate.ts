import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { type Ctx, ForbiddenError, NotFoundError, UnauthorizedError } from "@/lib/core";
import { readDb } from "@/lib/db/client";
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
  // No slug holds a control character or runs this long; such a URL names nothing (and a NUL would make
  // PostgreSQL fail the query instead of finding no row).
  if (orgSlug.length > 200 || hasControlChar(orgSlug)) throw new NotFoundError("Organization");
  const exec = readDb(ctx);
  const [row] = await exec
    .select({
      id: organizations.id,
      slug: organizations.slug,
      name: organizations.name,
      allowedJurisdictions: organizations.allowedJurisdictions,
      role: memberships.role,
    })
    .from(organizations)
    .innerJoin(
      memberships,
      and(eq(memberships.orgId, organizations.id), eq(memberships.userId, ctx.actor.userId)),
    )
    .where(eq(organizations.slug, orgSlug))
    .limit(1);
  if (!row) throw new NotFoundError("Organization");
  if (ctx.actor.tokenOrgId && ctx.actor.tokenOrgId !== row.id) throw new NotFoundError("Organization");
  const { role, ...org } = row;
  // A read-only token reads like a viewer whatever its user's role: everything beyond needs a write token.
  if (ctx.actor.tokenScope === "read" && min !== "viewer") {
    throw new ForbiddenError("This API token is read-only; create a write token for this", {
      reason: "token_read_only",
    });
  }
  if (!roleAtLeast(role, min)) throw new ForbiddenError(`This needs the ${min} role or higher`);
  return { org, role, userId: ctx.actor.userId };
}

/**
 * The gate for verbs that the worker's own actors also run (the services autoscaler launching and ending a
 * service's replicas): a user goes through requireOrgAccess unchanged; a system actor — only ever built by
 * worker code, never from a request — gets the organization by slug with the member role, so every rule
 * after the gate (residency, price, budget, quota) applies to it as to a member.
 */
export async function requireOrgAccessOrSystem(
  ctx: Ctx,
  orgSlug: string,
  min: OrgRole = "viewer",
): Promise<Omit<OrgAccess, "userId">> {
  if (ctx.actor.kind === "user") return requireOrgAccess(ctx, orgSlug, min);
  const [org] = await readDb(ctx)
    .select({
      id: organizations.id,
      slug: organizations.slug,
      name: organizations.name,
      allowedJurisdictions: organizations.allowedJurisdictions,
    })
    .from(organizations)
    .where(eq(organizations.slug, orgSlug))
    .limit(1);
  if (!org) throw new NotFoundError("Organization");
  return { org, role: "member" };
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
