import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { catalogQueryFromSearchParams } from "@/lib/api/query";
import { listOfferings } from "@/lib/catalog";

/**
 * GET: the GPU catalog with live availability, filtered like the catalog page (region, jurisdiction, gpu,
 * minMemoryGib, gpuCount, pricing, maxPrice, available, sort, page, pageSize). Unlike the page, a bad filter
 * value is a 422 problem naming the parameter, not silently dropped: a script should learn about its typo.
 */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) =>
  apiJson(await listOfferings(ctx, params.org, catalogQueryFromSearchParams(url.searchParams))),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
