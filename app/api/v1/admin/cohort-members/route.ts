import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { cohortMemberSchema, setCohortMember } from "@/lib/quotas";

/** PUT {cohortId, orgId, weight} (operators): the organization in that cohort (out of any other), with its weight. */
export const PUT = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  await setCohortMember(ctx, body);
  // Valid by now (the call validated it): the membership as saved, weight a number.
  return apiJson(cohortMemberSchema.parse(body));
});

export const { GET, POST, PATCH, DELETE } = notAllowed("PUT");
