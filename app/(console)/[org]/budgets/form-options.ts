import "server-only";
import type { Ctx } from "@/lib/core";
import { listServices } from "@/lib/services";
import { listMembers, listProjects } from "@/lib/tenancy";

/** What the budget form offers: the organization's projects, inference services and members. */
export async function budgetFormOptions(ctx: Ctx, orgSlug: string) {
  const [projects, services, members] = await Promise.all([
    listProjects(ctx, orgSlug),
    listServices(ctx, orgSlug),
    listMembers(ctx, orgSlug),
  ]);
  return {
    projects: projects.map((p) => ({ id: p.id, name: p.name })),
    services: services.map((s) => ({ id: s.id, name: s.name })),
    members: members.map((m) => ({ userId: m.userId, name: m.name, email: m.email })),
  };
}
