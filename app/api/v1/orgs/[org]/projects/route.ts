import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createProject, listProjects, type Project } from "@/lib/tenancy";

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

/** POST {name, slug?, environment}: a new project (admins and owners); `Idempotency-Key` makes a retry safe. */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const body = await readJsonBody(req);
  return idempotentCreate(req, ctx, params.org, "projects", body, async (c) => {
    const view = projectView(await createProject(c, params.org, body));
    return { body: view, location: `${url.pathname}/${view.id}` };
  });
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
