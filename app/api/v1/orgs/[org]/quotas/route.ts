import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { listOrgQuotas } from "@/lib/quotas";

/** GET: the organization's quotas per GPU model × region with use, borrowing and project shares (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params }) => {
  return apiJson({ items: await listOrgQuotas(ctx, params.org) });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
