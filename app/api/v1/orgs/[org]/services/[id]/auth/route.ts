import { readJsonBody } from "@/lib/api/body";
import { ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { serviceView, setServiceAuth } from "@/lib/services";

/**
 * PUT: who may call the service — `public`, or `token`, which issues a new service token (in this answer only;
 * on a token service it rotates the token). Members and up. With If-Match (the service's ETag), a service
 * changed since it was read is a 412 and nothing changes.
 */
export const PUT = apiHandler<{ org: string; id: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const precondition = ifMatchCheck(req, serviceView);
  const { token } = await setServiceAuth(ctx, params.org, params.id, body, { precondition });
  return apiJson({ auth: token ? "token" : "public", token });
});

export const { GET, POST, PATCH, DELETE } = notAllowed("PUT");
