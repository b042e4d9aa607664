import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listProjects, type Project } from "@/lib/tenancy";

const projectView = (p: Project) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  environment: p.environment,
  createdAt: p.createdAt.toISOString(),
});

/** GET: the organization's projects (launches name one by slug or id). Any role may read. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const projects = await listProjects(ctx, params.org);
  return apiJson(pageOf(projects.map(projectView), url.searchParams, (p) => p.id));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
