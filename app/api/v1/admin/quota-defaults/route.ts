import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaDefaults, quotaDefaultView, setQuotaDefault } from "@/lib/quotas";

const tagOf = (r: Parameters<typeof quotaDefaultView>[0]) => etagOf(quotaDefaultView(r));

/**
 * GET (operators) ?gpuModel=&region=&limit=&cursor=: what organizations without a quota row of their own get,
 * per GPU model × region; each row's `etag` is what PUT's If-Match compares with.
 */
export const GET = apiHandler(async ({ ctx, url }) => {
  const rows = await listQuotaDefaults(ctx, {
    gpuModelId: url.searchParams.get("gpuModel") || undefined,
    regionCode: url.searchParams.get("region") || undefined,
  });
  const page = pageOf(rows, url.searchParams, (r) => `${r.gpuModelId}/${r.regionCode}`);
  return apiJson({ ...page, items: page.items.map((r) => ({ ...r, etag: tagOf(r) })) });
});

/**
 * PUT {gpuModelId, regionCode, nominalGpus, borrowingLimitGpus, lendingLimitGpus?}: the default saved ('*' =
 * any), with its ETag. If-Match (a row's `etag`) makes a change another operator made since a 412.
 */
export const PUT = apiHandler(async ({ req, ctx }) => {
  const body = await readJsonBody(req);
  const saved = await setQuotaDefault(ctx, body, { precondition: ifMatchCheck(req, quotaDefaultView) });
  return apiJson(saved, { headers: { etag: tagOf(saved) } });
});

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
