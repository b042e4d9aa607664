import { apiHandler, apiJson } from "@/lib/api/handler";
import { parseInput } from "@/lib/core";
import { utilizationQuerySchema, utilizationSeries } from "@/lib/telemetry";

/**
 * GET ?metric=utilization|memory|power|temperature&range=1h|6h|24h|7d|30d: one instance's GPU series, per GPU
 * and averaged, downsampled in SQL to at most ~600 points. Another organization's instance is a 404 problem.
 */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const query = parseInput(utilizationQuerySchema, {
    metric: url.searchParams.get("metric") || undefined,
    range: url.searchParams.get("range") || undefined,
  });
  return apiJson(await utilizationSeries(ctx, params.org, params.id, query));
});
