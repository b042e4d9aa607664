import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { deleteService, getService, serviceView, updateServiceScaling } from "@/lib/services";

type P = { org: string; id: string };

/** GET: one service with its replica counts; the ETag covers its settings (send it back as If-Match). */
export const GET = apiHandler<P>(async ({ ctx, params }) => {
  const d = await getService(ctx, params.org, params.id);
  const view = serviceView(d.service);
  return apiJson(
    { ...view, desiredReplicas: d.service.desiredReplicas, readyReplicas: d.ready },
    { headers: { etag: etagOf(view) } },
  );
});

/** PATCH: change the scaling settings (members and up); a stale If-Match is a 412 and nothing changes. */
export const PATCH = apiHandler<P>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const precondition = ifMatchCheck(req, serviceView);
  const view = serviceView(await updateServiceScaling(ctx, params.org, params.id, body, { precondition }));
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

/** DELETE: stop routing to the service and terminate its replicas (members and up); a stale If-Match is a 412. */
export const DELETE = apiHandler<P>(async ({ req, ctx, params }) => {
  await deleteService(ctx, params.org, params.id, { precondition: ifMatchCheck(req, serviceView) });
  return new Response(null, { status: 204 });
});

export const { POST, PUT } = notAllowed("GET", "PATCH", "DELETE");
