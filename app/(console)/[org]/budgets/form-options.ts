import "server-only";
import type { Ctx } from "@/lib/core";
import { listMembers, listProjects } from "@/lib/tenancy";

/** What the budget form offers: the organization's projects and members. */
export async function budgetFormOptions(ctx: Ctx, orgSlug: string) {
  const [projects, members] = await Promise.all([listProjects(ctx, orgSlug), listMembers(ctx, orgSlug)]);
  return {
    projects: projects.map((p) => ({ id: p.id, name: p.name })),
    members: members.map((m) => ({ userId: m.userId, name: m.name, email: m.email })),
  };
}
