import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { listQuotaTable, setOrgQuota } from "@/lib/quotas";

/** GET (operators): every organization × GPU model × region with its levels and use. */
export const GET = apiHandler(async ({ ctx }) => apiJson({ items: await listQuotaTable(ctx) }));

/** PUT {orgId, gpuModelId, regionCode, nominalGpus, borrowingLimitGpus, lendingLimitGpus?, confirmReclaim?}. */
export const PUT = apiHandler(async ({ req, ctx }) =>
  apiJson(await setOrgQuota(ctx, await readJsonBody(req))),
);

export const { POST, PATCH, DELETE } = notAllowed("GET", "PUT");
