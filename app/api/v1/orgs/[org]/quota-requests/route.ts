import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createQuotaRequest, listOrgQuotaRequests, quotaRequestView } from "@/lib/quotas";

/** GET: the organization's quota requests, newest first (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const items = await listOrgQuotaRequests(ctx, params.org);
  return apiJson(pageOf(items.map(quotaRequestView), url.searchParams, (r) => r.id));
});

/** POST {gpuModelId, regionCode, requestedGpus, until?, reason}: ask an operator for more quota (members+). */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  return idempotentCreate(req, ctx, params.org, "quota-requests", body, async (c) => ({
    body: quotaRequestView(await createQuotaRequest(c, params.org, body)),
  }));
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
