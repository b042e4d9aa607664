import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listQuotaRequests, quotaRequestView } from "@/lib/quotas";

/** GET (operators): the request queue, open first, with each organization's use and spend. */
export const GET = apiHandler(async ({ ctx, url }) => {
  const status = url.searchParams.get("status");
  const rows = await listQuotaRequests(ctx, {
    status: status === "open" || status === "decided" ? status : undefined,
  });
  return apiJson(
    pageOf(
      rows.map((r) => ({
        ...quotaRequestView(r),
        orgSlug: r.orgSlug,
        orgName: r.orgName,
        requesterEmail: r.requesterEmail,
        nominalGpus: r.nominalGpus,
        inUseGpus: r.inUseGpus,
        monthSpendUsd: r.monthSpendUsd,
        pastRequests: r.pastRequests,
      })),
      url.searchParams,
      (r) => r.id,
    ),
  );
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
