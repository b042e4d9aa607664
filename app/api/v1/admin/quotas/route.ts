import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaTableKeys, quotaLevelsView, quotaTableRows, setOrgQuota } from "@/lib/quotas";

const tagOf = (r: Parameters<typeof quotaLevelsView>[0]) => etagOf(quotaLevelsView(r));

/**
 * GET (operators) ?org=&gpuModel=&region=&limit=&cursor=: every organization × GPU model × region with its
 * levels and use; each row's `etag` is what PUT's If-Match compares with (a list has no per-row header). The
 * page is cut from the table's keys first, so use is computed for that page's rows only.
 */
export const GET = apiHandler(async ({ ctx, url }) => {
  const q = (k: string) => url.searchParams.get(k) || undefined;
  const keys = await listQuotaTableKeys(ctx, {
    org: q("org"),
    gpuModelId: q("gpuModel"),
    regionCode: q("region"),
  });
  const page = pageOf(keys, url.searchParams, (k) => `${k.orgId}/${k.gpuModelId}/${k.regionCode}`);
  const rows = await quotaTableRows(ctx, page.items);
  return apiJson({ ...page, items: rows.map((r) => ({ ...r, etag: tagOf(r) })) });
});

/**
 * PUT {orgId, gpuModelId, regionCode, nominalGpus, borrowingLimitGpus, lendingLimitGpus?, confirmReclaim?}:
 * the levels saved, with their ETag. If-Match (a row's `etag`) makes a change another operator made since a 412.
 */
export const PUT = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  const saved = await setOrgQuota(ctx, body, { precondition: ifMatchCheck(req, quotaLevelsView) });
  return apiJson(saved, { headers: { etag: tagOf(saved) } });
});

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
