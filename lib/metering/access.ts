import "server-only";
import { and, eq, or } from "drizzle-orm";
import type { z } from "zod";
import { type OrgAccess, type OrgRole, requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { projects } from "@/lib/db/schema";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization (role checked) and, when asked, one of its projects by id or slug (else NotFound). */
export async function costScope(
  ctx: Ctx,
  orgSlug: string,
  project: string | null | undefined,
  min: OrgRole = "viewer",
): Promise<OrgAccess & { projectId: string | null }> {
  const access = await requireOrgAccess(ctx, orgSlug, min);
  if (!project) return { ...access, projectId: null };
  const exec = readDb(ctx);
  const [row] = await exec
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.orgId, access.org.id),
        UUID.test(project)
          ? or(eq(projects.id, project), eq(projects.slug, project))
          : eq(projects.slug, project),
      ),
    );
  if (!row) throw new NotFoundError("Project");
  return { ...access, projectId: row.id };
}

/**
 * Authorize, then parse: the organization (role checked) first, so a stranger's or a weaker role's bad input
 * is a 404/403 and never a field list; then the input; then its project, if it names one.
 */
export async function costScopeOf<S extends z.ZodType<{ project?: string | null }>>(
  ctx: Ctx,
  orgSlug: string,
  schema: S,
  raw: unknown,
  min: OrgRole = "viewer",
): Promise<OrgAccess & { projectId: string | null; input: z.output<S> }> {
  await requireOrgAccess(ctx, orgSlug, min);
  const input = parseInput(schema, raw);
  return { ...(await costScope(ctx, orgSlug, input.project, min)), input };
}
