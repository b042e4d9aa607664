import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Executor, getDb, inTx, readDb } from "@/lib/db/client";
import { organizations, regions } from "@/lib/db/schema";
import { TENANCY_FIELD_MESSAGES } from "./field-messages";
import { dataResidencySchema, renameOrganizationSchema } from "./schemas";

export type Jurisdiction = { code: string; regions: string[] };

/** The jurisdictions an organization can restrict itself to: those of the catalog's regions, with their names. */
export async function listJurisdictions(exec: Executor = getDb()): Promise<Jurisdiction[]> {
  const rows = await exec
    .select({
      code: regions.jurisdiction,
      regions: sql<string[]>`array_agg(${regions.name} order by ${regions.name})`,
    })
    .from(regions)
    .groupBy(regions.jurisdiction)
    .orderBy(asc(regions.jurisdiction));
  return rows;
}

/** What the general settings page shows; any member may read it. */
export async function getOrganizationSettings(ctx: Ctx, orgSlug: string) {
  const access = await requireOrgAccess(ctx, orgSlug, "viewer");
  return {
    org: access.org,
    role: access.role,
    jurisdictions: await listJurisdictions(readDb(ctx)),
  };
}

/** Rename (admins+). The slug stays, so bookmarks, API clients and scripts keep working. */
export async function renameOrganization(ctx: Ctx, orgSlug: string, raw: unknown) {
  const input = parseInput(renameOrganizationSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "admin");
    if (access.org.name === input.name) return access.org;
    await tx.update(organizations).set({ name: input.name }).where(eq(organizations.id, access.org.id));
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "organization.renamed",
      targetType: "organization",
      targetId: access.org.id,
      data: { from: access.org.name, to: input.name },
      at: now,
    });
    return { ...access.org, name: input.name };
  });
}

/**
 * Data residency (admins+): the jurisdictions where this organization may run work; none chosen means no
 * restriction. Each must be one the catalog offers, so a typo cannot silently block every launch.
 */
export async function setDataResidency(ctx: Ctx, orgSlug: string, raw: unknown) {
  const input = parseInput(dataResidencySchema, raw);
  const chosen = [...new Set(input.jurisdictions)].sort();
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "admin");
    const known = new Set((await listJurisdictions(tx)).map((j) => j.code));
    const unknown = chosen.filter((j) => !known.has(j));
    if (unknown.length) {
      throw ValidationError.field("jurisdictions", TENANCY_FIELD_MESSAGES.jurisdictionInvalid);
    }
    const before = [...access.org.allowedJurisdictions].sort();
    if (before.join("\n") === chosen.join("\n")) return access.org;
    await tx
      .update(organizations)
      .set({ allowedJurisdictions: chosen })
      .where(eq(organizations.id, access.org.id));
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "organization.data_residency_changed",
      targetType: "organization",
      targetId: access.org.id,
      data: { from: before, to: chosen },
      at: now,
    });
    return { ...access.org, allowedJurisdictions: chosen };
  });
}
