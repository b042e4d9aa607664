import { readOptionalJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { drainNode } from "@/lib/provisioning";

/** POST {reason?}: operators drain a node (no new placements; its running instances get the notice). */
export const POST = apiHandler<{ id: string }>(async ({ req, ctx, params }) =>
  apiJson(await drainNode(ctx, params.id, await readOptionalJsonBody(req))),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
