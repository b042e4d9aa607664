import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { failNode } from "@/lib/provisioning";

/** POST: operators mark a node failed (its instances fail, running auto-recover ones are requeued). */
export const POST = apiHandler<{ id: string }>(async ({ ctx, params }) =>
  apiJson(await failNode(ctx, params.id)),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
