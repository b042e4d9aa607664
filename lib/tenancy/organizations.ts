import "server-only";
import { sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit";
import type { Actor } from "@/lib/core";
import type { Tx } from "@/lib/db/client";
import { memberships, organizations, projects } from "@/lib/db/schema";
import { isReservedOrgSlug } from "./reserved-slugs";

export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return base || "org";
}

/** A slug not yet taken: "acme", then "acme-2", "acme-3", … */
async function uniqueOrgSlug(tx: Tx, name: string): Promise<string> {
  const base = slugify(name);
  const taken = await tx.execute<{ slug: string }>(
    sql`select slug from organizations where slug = ${base} or slug like ${`${base}-%`}`,
  );
  const set = new Set(taken.rows.map((r) => r.slug));
  // A reserved slug (a top-level route) counts as taken, so SSO-made organizations get "admin-2" instead.
  if (isReservedOrgSlug(base)) set.add(base);
  if (!set.has(base)) return base;
  for (let i = 2; ; i++) if (!set.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Create an organization with ownerId as its owner and a default development project, in tx. */
export async function createOrganizationWithOwner(
  tx: Tx,
  actor: Actor,
  input: { name: string; ownerId: string; now?: Date },
) {
  const slug = await uniqueOrgSlug(tx, input.name);
  const [org] = await tx.insert(organizations).values({ name: input.name, slug }).returning();
  if (!org) throw new Error("organization insert returned nothing");
  await tx.insert(memberships).values({ orgId: org.id, userId: input.ownerId, role: "owner" });
  const [project] = await tx
    .insert(projects)
    .values({ orgId: org.id, slug: "default", name: "Default", environment: "development" })
    .returning();
  await writeAudit(tx, actor, {
    orgId: org.id,
    action: "organization.created",
    targetType: "organization",
    targetId: org.id,
    data: { name: org.name, slug },
    at: input.now,
  });
  if (!project) throw new Error("project insert returned nothing");
  return { org, project };
}
