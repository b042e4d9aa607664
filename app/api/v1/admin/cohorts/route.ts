import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentPlatformCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createCohort, listCohorts } from "@/lib/quotas";

/** GET (operators): cohorts with their members and weights. */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(pageOf(await listCohorts(ctx), url.searchParams, (c) => c.id)),
);

/** POST {name, description?}: a new cohort; an Idempotency-Key makes a retry replay it instead of a 422. */
export const POST = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  return idempotentPlatformCreate(req, ctx, "cohorts", body, async (c) => ({
    body: await createCohort(c, body),
  }));
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
