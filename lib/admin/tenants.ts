import "server-only";
import { asc, count, eq, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { likeEscape, type Paged, paged, pageParam, textFilter } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { memberships, organizations, users } from "@/lib/db/schema";

export const TENANTS_PAGE_SIZE = 25;

export type TenantRow = {
  id: string;
  slug: string;
  name: string;
  allowedJurisdictions: string[];
  createdAt: Date;
  memberCount: number;
  ownerEmails: string[];
};

const filtersSchema = z.object({ q: textFilter, page: pageParam });
export type TenantFilters = { q?: string; page?: number | string };

/** Organizations with their member count and owners, by name; `q` matches the name or slug. */
export async function listTenants(ctx: Ctx, filters: TenantFilters = {}): Promise<Paged<TenantRow>> {
  requireOperator(ctx);
  const f = filtersSchema.parse(filters);
  const exec = readDb(ctx);
  const pattern = f.q ? `%${likeEscape(f.q)}%` : null;
  const where = pattern
    ? or(ilike(organizations.name, pattern), ilike(organizations.slug, pattern))
    : undefined;
  const [rows, [total]] = await Promise.all([
    exec
      .select({
        id: organizations.id,
        slug: organizations.slug,
        name: organizations.name,
        allowedJurisdictions: organizations.allowedJurisdictions,
        createdAt: organizations.createdAt,
        memberCount: sql<number>`count(${memberships.id})::int`,
        ownerEmails: sql<string[]>`coalesce(
          array_agg(${users.email} order by ${users.email}) filter (where ${memberships.role} = 'owner'),
          '{}'::text[])`,
      })
      .from(organizations)
      .leftJoin(memberships, eq(memberships.orgId, organizations.id))
      .leftJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .groupBy(organizations.id)
      .orderBy(asc(organizations.name), asc(organizations.slug))
      .limit(TENANTS_PAGE_SIZE)
      .offset((f.page - 1) * TENANTS_PAGE_SIZE),
    exec.select({ n: count() }).from(organizations).where(where),
  ]);
  return paged(rows, total?.n ?? 0, f.page, TENANTS_PAGE_SIZE);
}
