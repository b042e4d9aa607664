import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { getQuotaPolicy, type QuotaPolicy, setQuotaPolicy } from "@/lib/quotas";

const view = (p: QuotaPolicy) => ({ preemptLowerPriority: p.preemptLowerPriority });

/** GET: the organization's quota policy (any role), with its ETag. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params }) => {
  const policy = view(await getQuotaPolicy(ctx, params.org));
  return apiJson(policy, { headers: { etag: etagOf(policy) } });
});

/**
 * PUT: set it (admins and owners). With If-Match (GET's ETag), a policy changed since it was read is a 412 and
 * nothing is written.
 */
export const PUT = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const precondition = ifMatchCheck(req, view);
  const policy = view(await setQuotaPolicy(ctx, params.org, body, { precondition }));
  return apiJson(policy, { headers: { etag: etagOf(policy) } });
});

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
