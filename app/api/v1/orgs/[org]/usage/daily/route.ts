import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type DailyCostInput, dailyCost } from "@/lib/metering";

/** GET: cost per UTC day grouped by project, gpu_model, region or pricing_model (`from`, `to` exclusive). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const q = url.searchParams;
  // Left raw: the library's schema coerces and checks them (a bad value is a 422 naming it).
  const input = {
    from: q.get("from") ?? undefined,
    to: q.get("to") ?? undefined,
    groupBy: q.get("groupBy") ?? undefined,
    project: q.get("project") || undefined,
  } as unknown as DailyCostInput;
  return apiJson(await dailyCost(ctx, params.org, input));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
