import { requireOrgAccess } from "@/lib/access";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { decodeCursor, encodeCursor, pageQuery } from "@/lib/api/paging";
import { catalogQueryFromSearchParams } from "@/lib/api/query";
import { listOfferings } from "@/lib/catalog";

/**
 * GET: the GPU catalog with live availability, filtered like the catalog page (region, jurisdiction, gpu,
 * minMemoryGib, gpuCount, pricing, maxPrice, available, sort, page, pageSize). Unlike the page, a bad filter
 * value is a 422 problem naming the parameter, not silently dropped: a script should learn about its typo.
 */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const query = catalogQueryFromSearchParams(url.searchParams);
  // The cursor is the next page's number (the catalog is sorted by price or name, not by a stable key).
  await requireOrgAccess(ctx, params.org);
  const { cursor } = pageQuery(url.searchParams);
  const at = decodeCursor(cursor).o;
  const page = await listOfferings(ctx, params.org, at ? { ...query, page: at } : query);
  return apiJson({
    ...page,
    next: page.page < page.pageCount ? encodeCursor({ o: page.page + 1 }) : null,
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
