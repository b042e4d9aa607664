import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { getWebhookEndpoint, webhookDeliveryJson } from "@/lib/notify";

/** GET: the endpoint's deliveries, newest first, each with every attempt and the receiver's answers. */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const { deliveries } = await getWebhookEndpoint(ctx, params.org, params.id, { limit: 200 });
  return apiJson(pageOf(deliveries.map(webhookDeliveryJson), url.searchParams, (d) => d.id));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
