import { requireOrgAccess } from "@/lib/access";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listGpuModels } from "@/lib/catalog";

/** GET: GPU models with their specs and MIG profiles. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  await requireOrgAccess(ctx, params.org);
  return apiJson(pageOf(await listGpuModels(ctx), url.searchParams, (g) => g.id));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
