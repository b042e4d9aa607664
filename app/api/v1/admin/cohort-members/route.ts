import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { cohortMemberView, setCohortMember } from "@/lib/quotas";

/**
 * PUT {cohortId, orgId, weight} (operators): the organization in that cohort (out of any other), with its
 * weight, and the membership's ETag. If-Match (a member's `etag` in GET /admin/cohorts) makes a change
 * another operator made since a 412.
 */
export const PUT = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  const saved = await setCohortMember(ctx, body, { precondition: ifMatchCheck(req, cohortMemberView) });
  return apiJson(saved, { headers: { etag: etagOf(saved) } });
});

export const { GET, POST, PATCH, DELETE } = notAllowed("PUT");
