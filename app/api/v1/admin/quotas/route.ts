import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaTable, quotaLevelsView, setOrgQuota } from "@/lib/quotas";

const tagOf = (r: Parameters<typeof quotaLevelsView>[0]) => etagOf(quotaLevelsView(r));

/**
 * GET (operators): every organization × GPU model × region with its levels and use; each row's `etag` is
 * what PUT's If-Match compares with (a list has no per-row header).
 */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(
    pageOf(
      (await listQuotaTable(ctx)).map((r) => ({ ...r, etag: tagOf(r) })),
      url.searchParams,
      (r) => `${r.orgId}/${r.gpuModelId}/${r.regionCode}`,
    ),
  ),
);

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
