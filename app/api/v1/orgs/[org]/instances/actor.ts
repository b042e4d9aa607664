import "server-only";
import { getActor } from "@/lib/auth/session";
import { type Ctx, UnauthorizedError } from "@/lib/core";

/** The signed-in actor for a route handler; no session is a 401 problem, never a redirect to a page. */
export async function apiCtx(): Promise<Ctx> {
  const actor = await getActor();
  if (!actor) throw new UnauthorizedError();
  return { actor };
}

export function json(body: unknown): Response {
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}
