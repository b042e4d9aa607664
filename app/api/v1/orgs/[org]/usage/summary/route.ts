import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { forecastMonthEnd } from "@/lib/metering";

/** GET: month-to-date spend and the month-end forecast with its method (`project` narrows to one). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const f = await forecastMonthEnd(ctx, params.org, {
    project: url.searchParams.get("project") || undefined,
  });
  return apiJson({ ...f, meteredUntil: f.meteredUntil?.toISOString() ?? null });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
