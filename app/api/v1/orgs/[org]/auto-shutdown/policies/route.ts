import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { policyView } from "@/lib/api/policy-view";
import { listAutoShutdownPolicies, type PolicyInput, setAutoShutdownPolicy } from "@/lib/autoshutdown";

/** GET: the organization's auto-shutdown policies (the organization's, then per project and GPU model). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const rows = await listAutoShutdownPolicies(ctx, params.org);
  const items = rows.map((r) => ({
    ...policyView(r.policy),
    projectName: r.projectName,
    gpuModelName: r.gpuModelName,
  }));
  return apiJson(pageOf(items, url.searchParams, (p) => p.id));
});

/**
 * PUT: set the policy of a scope (the body's project and gpuModelId; both empty = the organization's). A scope
 * has one policy, so this creates or replaces it: repeating it is harmless (admins and owners). With If-Match
 * (the ETag of GET …/policies/{id}) a policy changed since, or a scope without one, is a 412.
 */
export const PUT = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const body = (await readJsonBody(req)) as PolicyInput;
  const precondition = ifMatchCheck(req, policyView);
  const view = policyView(await setAutoShutdownPolicy(ctx, params.org, body, { precondition }));
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
