import { readJsonBody } from "@/lib/api/body";
import { etagOf } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createService, listServices, serviceView } from "@/lib/services";

/** GET: the organization's live services with desired, active and ready replicas, by name (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const all = await listServices(ctx, params.org);
  return apiJson(pageOf(all, url.searchParams, (s) => s.id));
});

/**
 * POST: a service (members and up). The answer carries its token, once; a retry with the same Idempotency-Key
 * gets the service without it (only the token's hash is kept).
 */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const body = await readJsonBody(req);
  const res = await idempotentCreate(req, ctx, params.org, "services", body, async (c) => {
    const { service, token } = await createService(c, params.org, body);
    const view = serviceView(service);
    return {
      body: { ...view, token },
      replay: { ...view, token: null },
      location: `${url.pathname}/${view.id}`,
    };
  });
  const { token: _t, ...view } = await res.clone().json();
  res.headers.set("etag", etagOf(view));
  return res;
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
