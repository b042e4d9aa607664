import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, readDb } from "@/lib/db/client";
import { projects } from "@/lib/db/schema";
import { TENANCY_FIELD_MESSAGES } from "./field-messages";
import { slugify } from "./organizations";
import {
  type CreateProjectInput,
  createProjectSchema,
  PROJECT_SLUG_PATTERN,
  updateProjectSchema,
} from "./schemas";

export type Project = typeof projects.$inferSelect;

/** The organization's projects by name. Any member may look (the launch form picks from them). */
export async function listProjects(ctx: Ctx, orgSlug: string): Promise<Project[]> {
  const access = await requireOrgAccess(ctx, orgSlug, "viewer");
  return readDb(ctx)
    .select()
    .from(projects)
    .where(eq(projects.orgId, access.org.id))
    .orderBy(asc(projects.name));
}

/**
 * Create a project (admins+). The slug, when left empty, is derived from the name; it is unique per
 * organization, enforced by the unique index so two simultaneous creations cannot both take it.
 */
export async function createProject(ctx: Ctx, orgSlug: string, raw: CreateProjectInput | unknown) {
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    // Authorize before validating: a weaker role's bad body is a refusal, not a field list.
    const access = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(createProjectSchema, raw);
    const slug = input.slug ?? slugify(input.name);
    if (!PROJECT_SLUG_PATTERN.test(slug) || slug.length < 2 || !/[a-z0-9]/.test(input.name.toLowerCase())) {
      throw ValidationError.field("slug", TENANCY_FIELD_MESSAGES.slugPattern);
    }
    const [project] = await tx
      .insert(projects)
      .values({
        orgId: access.org.id,
        slug,
        name: input.name,
        environment: input.environment,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [projects.orgId, projects.slug] })
      .returning();
    if (!project) throw ValidationError.field("slug", TENANCY_FIELD_MESSAGES.slugTaken);
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "project.created",
      targetType: "project",
      targetId: project.id,
      data: { slug, name: project.name, environment: project.environment },
      at: now,
    });
    return project;
  });
}

/**
 * Rename a project or move it to another environment (admins+). The slug stays: it appears in URLs, API
 * calls and scripts, so a rename must not break them.
 */
export async function updateProject(ctx: Ctx, orgSlug: string, raw: unknown) {
  const input = parseInput(updateProjectSchema, raw);
  const now = nowOf(ctx);
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const access = await requireOrgAccess(c, orgSlug, "admin");
    const [before] = await tx
      .select()
      .from(projects)
      .where(and(eq(projects.id, input.projectId), eq(projects.orgId, access.org.id)))
      .for("update");
    if (!before) throw new NotFoundError("Project");
    if (before.name === input.name && before.environment === input.environment) return before;
    const [after] = await tx
      .update(projects)
      .set({ name: input.name, environment: input.environment })
      .where(eq(projects.id, before.id))
      .returning();
    await writeAudit(tx, ctx.actor, {
      orgId: access.org.id,
      action: "project.updated",
      targetType: "project",
      targetId: before.id,
      data: {
        from: { name: before.name, environment: before.environment },
        to: { name: input.name, environment: input.environment },
      },
      at: now,
    });
    return after ?? before;
  });
}
