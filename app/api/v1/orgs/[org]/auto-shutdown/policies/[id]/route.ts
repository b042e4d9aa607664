import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { policyView } from "@/lib/api/policy-view";
import { deleteAutoShutdownPolicy, getAutoShutdownPolicy } from "@/lib/autoshutdown";

type P = { org: string; id: string };

/** GET: one policy with its ETag (send it back as If-Match on PUT …/policies or DELETE). */
export const GET = apiHandler<P>(async ({ ctx, params }) => {
  const view = policyView(await getAutoShutdownPolicy(ctx, params.org, params.id));
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

/** DELETE: remove a policy; its scope falls back to the broader one (admins and owners). If-Match honoured. */
export const DELETE = apiHandler<P>(async ({ req, ctx, params }) => {
  await deleteAutoShutdownPolicy(ctx, params.org, params.id, { precondition: ifMatchCheck(req, policyView) });
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = notAllowed("GET", "DELETE");
