import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { loadInstanceDetail } from "@/lib/provisioning";

/** GET: the instance's timeline (every state change with its reason and actor), oldest first. */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const { events } = await loadInstanceDetail(ctx, params.org, params.id);
  return apiJson(pageOf(events, url.searchParams, (e) => String(e.id)));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
