import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { listProjects } from "@/lib/tenancy";

/** GET: the organization's projects (launches name one by slug or id). Any role may read. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params }) => {
  const projects = await listProjects(ctx, params.org);
  return apiJson({
    items: projects.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      environment: p.environment,
      createdAt: p.createdAt.toISOString(),
    })),
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
