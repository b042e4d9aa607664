import { apiHandler, apiJson } from "@/lib/api/handler";
import { followLogs } from "@/lib/api/log-stream";
import { notAllowed } from "@/lib/api/not-allowed";
import { instanceLogs } from "@/lib/telemetry";

/**
 * GET: the container's log tail (`since` = ISO time of the last line seen, `limit`). With `follow=1` the answer
 * is a Server-Sent Events stream that keeps sending new lines while the workload runs (`Last-Event-ID`, sent
 * by a reconnecting EventSource, resumes after that line).
 */
export const GET = apiHandler<{ org: string; id: string }>(async ({ req, ctx, params, url }) => {
  const q = url.searchParams;
  const since = q.get("since") || req.headers.get("last-event-id") || undefined;
  const limit = q.get("limit") || undefined;
  const follow = q.get("follow");
  if (follow === "1" || follow === "true") {
    return followLogs(ctx, params.org, params.id, { since, limit, signal: req.signal }, url.pathname);
  }
  return apiJson(await instanceLogs(ctx, params.org, params.id, { since, limit }));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
