import "server-only";
import { headers } from "next/headers";
import { authenticateHeaders, authenticateRequest } from "@/lib/api/authenticate";
import type { Ctx } from "@/lib/core";

/**
 * The caller for a route handler: an API token (Authorization: Bearer) or the console's session; neither is a
 * 401 problem, never a redirect to a page. Without the request, the headers come from Next's request scope.
 */
export async function apiCtx(req?: Request): Promise<Ctx> {
  return req ? authenticateRequest(req) : authenticateHeaders(new Headers(await headers()));
}

export function json(body: unknown): Response {
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}
