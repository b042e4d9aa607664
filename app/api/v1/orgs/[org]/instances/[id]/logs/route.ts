import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { instanceLogs } from "@/lib/telemetry";

/** GET: the container's log tail (`since` = ISO time of the last line seen, `limit`). */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) =>
  apiJson(
    await instanceLogs(ctx, params.org, params.id, {
      since: url.searchParams.get("since") || undefined,
      limit: url.searchParams.get("limit") || undefined,
    }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
