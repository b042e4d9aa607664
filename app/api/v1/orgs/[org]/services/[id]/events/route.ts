import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { getService } from "@/lib/services";

/** GET: the service's latest events (scaling decisions with their numbers, replicas), newest first (any role). */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const { events } = await getService(ctx, params.org, params.id);
  const items = events.map((e) => ({ ...e, at: new Date(e.at).toISOString() }));
  return apiJson(pageOf(items, url.searchParams, (e) => `${e.at}|${e.code}|${e.text}`));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
