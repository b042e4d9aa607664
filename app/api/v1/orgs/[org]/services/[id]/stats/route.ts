import { z } from "zod";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { parseInput } from "@/lib/core";
import { getService, SERVICE_RANGES, type ServiceRange } from "@/lib/services";

const query = z.object({
  range: z.enum(Object.keys(SERVICE_RANGES) as [ServiceRange, ...ServiceRange[]]).default("1h"),
});

/** GET: the service's traffic, latency, cold starts and cost over `range`, totals and 120-step series (1h, 6h, 24h, 7d, 30d; any role). */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const raw = { range: url.searchParams.get("range") ?? undefined };
  const asked = query.safeParse(raw);
  // The gate (and another tenant's 404) comes before the query's validation.
  const { stats, series, stepSeconds } = await getService(
    ctx,
    params.org,
    params.id,
    asked.success ? asked.data.range : "1h",
  );
  const { range } = asked.success ? asked.data : parseInput(query, raw);
  return apiJson({ range, ...stats, stepSeconds, series });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
