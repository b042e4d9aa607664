import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { createCohort, listCohorts } from "@/lib/quotas";

/** GET (operators): cohorts with their members and weights. */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(pageOf(await listCohorts(ctx), url.searchParams, (c) => c.id)),
);

/** POST {name, description?}: a new cohort. */
export const POST = apiHandler(async ({ req, ctx }) =>
  apiJson(await createCohort(ctx, await readJsonBody(req)), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
