import { readJsonBody } from "@/lib/api/body";
import { etagOf } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentPlatformCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { cohortMemberView, createCohort, listCohorts } from "@/lib/quotas";

/**
 * GET (operators) ?org=&limit=&cursor=: cohorts with their members and weights (or only the cohort that
 * organization is in); each member's `etag` is what PUT /admin/cohort-members' If-Match compares with.
 */
export const GET = apiHandler(async ({ ctx, url }) => {
  const rows = await listCohorts(ctx, { orgId: url.searchParams.get("org") || undefined });
  const page = pageOf(rows, url.searchParams, (c) => c.id);
  return apiJson({
    ...page,
    items: page.items.map((c) => ({
      ...c,
      members: c.members.map((m) => ({
        ...m,
        etag: etagOf(cohortMemberView({ orgId: m.orgId, cohortId: c.id, weight: m.weight })),
      })),
    })),
  });
});

/** POST {name, description?}: a new cohort; an Idempotency-Key makes a retry replay it instead of a 422. */
export const POST = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  return idempotentPlatformCreate(req, ctx, "cohorts", body, async (c) => ({
    body: await createCohort(c, body),
  }));
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
