import { readOptionalJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { activateNode } from "@/lib/provisioning";

/** POST {reason?}: operators return a drained or failed node to service. */
export const POST = apiHandler<{ id: string }>(async ({ req, ctx, params }) =>
  apiJson(await activateNode(ctx, params.id, await readOptionalJsonBody(req))),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
