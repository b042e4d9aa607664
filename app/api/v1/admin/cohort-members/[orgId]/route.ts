import { ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { cohortMemberView, removeCohortMember } from "@/lib/quotas";

/**
 * DELETE (operators): the organization out of its cohort (404 when it is in none). If-Match (the member's
 * `etag` in GET /admin/cohorts) makes a membership another operator changed since a 412.
 */
export const DELETE = apiHandler<{ orgId: string }>(async ({ req, ctx, params }) => {
  await removeCohortMember(
    ctx,
    { orgId: params.orgId },
    { precondition: ifMatchCheck(req, cohortMemberView) },
  );
  return apiJson({ orgId: params.orgId, removed: true });
});

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");
