import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createWebhookEndpoint, listWebhookEndpoints, webhookEndpointJson } from "@/lib/notify";

/** GET: the organization's webhook endpoints with each one's latest delivery (admins and owners). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const all = await listWebhookEndpoints(ctx, params.org);
  return apiJson(pageOf(all.map(webhookEndpointJson), url.searchParams, (e) => e.id));
});

/**
 * POST: register an endpoint (admins and owners). The answer carries the signing secret, once; a retry with the
 * same Idempotency-Key gets the endpoint without it (the secret is never stored in clear).
 */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const body = await readJsonBody(req);
  return idempotentCreate(req, ctx, params.org, "webhooks", body, async (c) => {
    const { endpoint, secret } = await createWebhookEndpoint(c, params.org, body);
    const view = webhookEndpointJson(endpoint);
    return {
      body: { ...view, secret },
      replay: { ...view, secret: null },
      location: `${url.pathname}/${view.id}`,
    };
  });
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
