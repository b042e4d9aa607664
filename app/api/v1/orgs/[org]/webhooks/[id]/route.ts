import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  setWebhookEnabled,
  webhookEndpointEtagView,
  webhookEndpointJson,
} from "@/lib/notify";

type P = { org: string; id: string };

/** GET: one endpoint (admins and owners), with its ETag. */
export const GET = apiHandler<P>(async ({ ctx, params }) => {
  const { endpoint } = await getWebhookEndpoint(ctx, params.org, params.id, { limit: 1 });
  return apiJson(webhookEndpointJson(endpoint), {
    headers: { etag: etagOf(webhookEndpointEtagView(endpoint)) },
  });
});

/** PATCH: `{"enabled": false}` pauses the endpoint, `true` resumes it; If-Match is honoured (412 on a lost update). */
export const PATCH = apiHandler<P>(async ({ req, ctx, params }) => {
  const body = (await readJsonBody(req)) as { enabled?: unknown } | null;
  await setWebhookEnabled(ctx, params.org, params.id, body?.enabled, {
    precondition: ifMatchCheck(req, webhookEndpointEtagView),
  });
  const { endpoint } = await getWebhookEndpoint(ctx, params.org, params.id, { limit: 1 });
  return apiJson(webhookEndpointJson(endpoint), {
    headers: { etag: etagOf(webhookEndpointEtagView(endpoint)) },
  });
});

/** DELETE: remove the endpoint with its deliveries; If-Match is honoured (412 if it changed since). */
export const DELETE = apiHandler<P>(async ({ req, ctx, params }) => {
  await deleteWebhookEndpoint(ctx, params.org, params.id, {
    precondition: ifMatchCheck(req, webhookEndpointEtagView),
  });
  return new Response(null, { status: 204 });
});

export const { POST, PUT } = notAllowed("GET", "PATCH", "DELETE");
