import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { sendTestWebhook } from "@/lib/notify";

/** POST: queue a `webhook.test` event for this endpoint; 202 with the delivery's id. */
export const POST = apiHandler<{ org: string; id: string }>(async ({ ctx, params }) => {
  const { deliveryId } = await sendTestWebhook(ctx, params.org, params.id);
  return apiJson({ deliveryId }, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
