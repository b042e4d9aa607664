import { readOptionalJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { failNode } from "@/lib/provisioning";

/** POST {reason?}: operators mark a node failed (its instances fail, running auto-recover ones are requeued). */
export const POST = apiHandler<{ id: string }>(async ({ req, ctx, params }) =>
  apiJson(await failNode(ctx, params.id, await readOptionalJsonBody(req))),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
