import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type UtilizationQuery, utilizationSeries } from "@/lib/telemetry";

/**
 * GET ?metric=utilization|memory|power|temperature&range=1h|6h|24h|7d|30d[&step=SECONDS]: one instance's GPU
 * series, per GPU and averaged, downsampled in SQL to at most ~600 points (or coarser bins of `step` seconds). Another organization's instance is a 404 problem.
 * The library authorizes first, then parses the query (a stranger's bad query is a 404, not a 422).
 */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const query = {
    metric: url.searchParams.get("metric") || undefined,
    range: url.searchParams.get("range") || undefined,
    step: url.searchParams.get("step") || undefined,
  } as UtilizationQuery;
  return apiJson(await utilizationSeries(ctx, params.org, params.id, query));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
