import "server-only";
import { hitRateLimit } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import { type Ctx, UnauthorizedError, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { authenticateApiToken } from "@/lib/tenancy";

export type ApiCtx = Ctx & { actor: UserActor };
export type SessionLookup = () => Promise<UserActor | null>;
export type WriteLimit = { max: number; windowSeconds: number };

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

/**
 * Writes per token-user and organization per minute. A runaway CI loop gets 429s (with Retry-After) instead of
 * filling the queue; quota and budget caps still bound what it can launch. Reads are not counted (no write each).
 */
export const API_WRITE_LIMIT: WriteLimit = {
  max: Number(process.env.FORJA_API_WRITE_LIMIT ?? 120),
  windowSeconds: 60,
};

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function authenticateRequest(
  req: Request,
  opts: { session?: SessionLookup; now?: Date; writeLimit?: WriteLimit } = {},
): Promise<ApiCtx> {
  const ctx = await authenticateHeaders(req.headers, opts);
  const { tokenOrgId, userId } = ctx.actor;
  if (tokenOrgId && !READ_METHODS.has(req.method)) {
    await hitRateLimit(
      getDb(),
      `api-write:${tokenOrgId}:${userId}`,
      opts.writeLimit ?? API_WRITE_LIMIT,
      opts.now ?? new Date(),
    );
  }
  return ctx;
}
