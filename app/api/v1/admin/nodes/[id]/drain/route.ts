import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { drainNode } from "@/lib/provisioning";

/** POST: operators drain a node (no new placements; its running instances get the notice). */
export const POST = apiHandler<{ id: string }>(async ({ ctx, params }) =>
  apiJson(await drainNode(ctx, params.id)),
);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
