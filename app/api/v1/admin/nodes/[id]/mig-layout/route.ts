import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type MigLayout, setNodeMigLayout } from "@/lib/provisioning";

/**
 * PUT {migGpus: [indexes]}: operators set which GPUs of an idle node are in MIG mode (409 while busy); the
 * answer carries the layout's ETag. If-Match (the node row's `etag` in GET /admin/nodes) makes a layout
 * another operator changed since a 412.
 */
export const PUT = apiHandler<{ id: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const saved = await setNodeMigLayout(ctx, params.id, body, {
    precondition: ifMatchCheck(req, (l: MigLayout) => l),
  });
  return apiJson(saved, { headers: { etag: etagOf(saved) } });
});

export const { GET, POST, PATCH, DELETE } = notAllowed("PUT");
