import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { createQuotaRequest, listOrgQuotaRequests, quotaRequestView } from "@/lib/quotas";

/** GET: the organization's quota requests, newest first (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params }) => {
  const items = await listOrgQuotaRequests(ctx, params.org);
  return apiJson({ items: items.map(quotaRequestView) });
});

/** POST {gpuModelId, regionCode, requestedGpus, until?, reason}: ask an operator for more quota (members+). */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const created = await createQuotaRequest(ctx, params.org, await readJsonBody(req));
  return apiJson(quotaRequestView(created), { status: 201 });
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
