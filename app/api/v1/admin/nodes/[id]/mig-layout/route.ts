import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { setNodeMigLayout } from "@/lib/provisioning";

/** PUT {migGpus: [indexes]}: operators set which GPUs of an idle node are in MIG mode (409 while busy). */
export const PUT = apiHandler<{ id: string }>(async ({ req, ctx, params }) =>
  apiJson(await setNodeMigLayout(ctx, params.id, await readJsonBody(req))),
);

export const { GET, POST, PATCH, DELETE } = notAllowed("PUT");
