import "server-only";
import { getActor } from "@/lib/auth/session";
import { type Ctx, UnauthorizedError, type UserActor } from "@/lib/core";
import { authenticateApiToken } from "@/lib/tenancy";

export type ApiCtx = Ctx & { actor: UserActor };
export type SessionLookup = () => Promise<UserActor | null>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Who is calling: `Authorization: Bearer forja_…` is an API token (scoped to its organization, acting with
 * its user's current role); otherwise the console's next-auth session cookie. A malformed, unknown, revoked
 * or expired token is a 401 and never falls back to the cookie, so a script cannot silently run as whoever
 * is signed in in the same browser.
 */
export async function authenticateHeaders(
  headers: Headers,
  opts: { session?: SessionLookup; now?: Date } = {},
): Promise<ApiCtx> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const secret = BEARER.exec(authorization)?.[1];
    if (!secret) throw new UnauthorizedError("Send the API token as: Authorization: Bearer forja_…");
    return { actor: await authenticateApiToken(secret, { now: opts.now }) };
  }
  // No cookie at all means no session to look up (scripts without a token), so skip next-auth entirely.
  if (headers.get("cookie")) {
    const actor = await (opts.session ?? getActor)();
    if (actor) return { actor };
  }
  throw new UnauthorizedError("Sign in, or send an API token as: Authorization: Bearer forja_…");
}

export function authenticateRequest(
  req: Request,
  opts?: { session?: SessionLookup; now?: Date },
): Promise<ApiCtx> {
  return authenticateHeaders(req.headers, opts);
}
