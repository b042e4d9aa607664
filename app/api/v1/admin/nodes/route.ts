import { listNodes } from "@/lib/admin";
import { readJsonBody } from "@/lib/api/body";
import { etagOf } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentPlatformCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { addNode } from "@/lib/provisioning";

/** GET (operators) ?region=&status=&limit=&cursor=: every node with its GPUs, MIG layout and what holds capacity there. */
export const GET = apiHandler(async ({ ctx, url }) => {
  const nodes = await listNodes(ctx, {
    region: url.searchParams.get("region") || undefined,
    status: url.searchParams.get("status") || undefined,
  });
  const page = pageOf(nodes, url.searchParams, (n) => n.id);
  // The row's etag is its MIG layout's, what PUT /admin/nodes/{id}/mig-layout's If-Match compares with.
  return apiJson({
    ...page,
    items: page.items.map((n) => ({ ...n, etag: etagOf({ nodeId: n.id, migGpus: n.migGpuIndexes }) })),
  });
});

/**
 * POST {name, regionCode, gpuModelId, gpuCount, vcpus, ramGib, migGpus?}: add a node to a simulated region;
 * with an Idempotency-Key a retried call answers the node it added instead of adding another.
 */
export const POST = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  return idempotentPlatformCreate(req, ctx, "nodes", body, async (c) => ({ body: await addNode(c, body) }));
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
