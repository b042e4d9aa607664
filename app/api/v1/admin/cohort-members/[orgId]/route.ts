import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { removeCohortMember } from "@/lib/quotas";

/** DELETE (operators): the organization out of its cohort (404 when it is in none). */
export const DELETE = apiHandler<{ orgId: string }>(async ({ ctx, params }) => {
  await removeCohortMember(ctx, { orgId: params.orgId });
  return apiJson({ orgId: params.orgId, removed: true });
});

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");
