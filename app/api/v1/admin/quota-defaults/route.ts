import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaDefaults, setQuotaDefault } from "@/lib/quotas";

/** GET (operators): what organizations without a quota row of their own get, per GPU model × region. */
export const GET = apiHandler(async ({ ctx, url }) =>
  apiJson(pageOf(await listQuotaDefaults(ctx), url.searchParams, (r) => `${r.gpuModelId}/${r.regionCode}`)),
);

/** PUT {gpuModelId, regionCode, nominalGpus, borrowingLimitGpus, lendingLimitGpus?}: the default saved ('*' = any). */
export const PUT = apiHandler(async ({ req, ctx }) =>
  apiJson(await setQuotaDefault(ctx, await readJsonBody(req))),
);

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
