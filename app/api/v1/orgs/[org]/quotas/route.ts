import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listOrgQuotas } from "@/lib/quotas";

/** GET: the organization's quotas per GPU model × region with use, borrowing and project shares (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const rows = await listOrgQuotas(ctx, params.org);
  return apiJson(pageOf(rows, url.searchParams, (r) => `${r.gpuModelId}/${r.regionCode}`));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
