import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaTable, setOrgQuota } from "@/lib/quotas";

/** GET (operators): every organization × GPU model × region with its levels and use. */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(
    pageOf(await listQuotaTable(ctx), url.searchParams, (r) => `${r.orgId}/${r.gpuModelId}/${r.regionCode}`),
  ),
);

/** PUT {orgId, gpuModelId, regionCode, nominalGpus, borrowingLimitGpus, lendingLimitGpus?, confirmReclaim?}. */
export const PUT = apiHandler(async ({ req, ctx }) =>
  apiJson(await setOrgQuota(ctx, await readJsonBody(req))),
);

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
