import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { resendWebhookDelivery } from "@/lib/notify";

/** POST: send a delivery again, with the same webhook-id (a new round of attempts); 202. */
export const POST = apiHandler<{ org: string; id: string; deliveryId: string }>(async ({ ctx, params }) => {
  const { deliveryId } = await resendWebhookDelivery(ctx, params.org, params.deliveryId, {
    endpointId: params.id,
  });
  return apiJson({ deliveryId }, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
