import "server-only";
import { hitRateLimit, requestOrigin } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import { type Ctx, ForbiddenError, UnauthorizedError, type UserActor } from "@/lib/core";
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

/**
 * A write made with the session cookie must come from the console itself. Browsers send Origin on every
 * non-GET request, so a missing or foreign one means another site (or a tool replaying the cookie) is
 * trying to act as whoever is signed in: refused before anything runs. Tokens are not cookies and need no
 * such check. The public URL (NEXTAUTH_URL) counts as ours too, for a proxy that rewrites Host.
 */
function assertSameOrigin(req: Request): void {
  const origin = req.headers.get("origin");
  const ours = new Set([requestOrigin(req.headers)]);
  if (process.env.NEXTAUTH_URL) ours.add(new URL(process.env.NEXTAUTH_URL).origin);
  if (!origin || !ours.has(origin)) {
    throw new ForbiddenError(
      "Writes with the console's session must come from the console (Origin). Scripts: send an API token.",
    );
  }
}

export async function authenticateRequest(
  req: Request,
  opts: { session?: SessionLookup; now?: Date; writeLimit?: WriteLimit } = {},
): Promise<ApiCtx> {
  const ctx = await authenticateHeaders(req.headers, opts);
  if (READ_METHODS.has(req.method)) return ctx;
  const { tokenOrgId, userId } = ctx.actor;
  if (!tokenOrgId) assertSameOrigin(req);
  // Session writes get a limit of their own too (a compromised tab cannot flood launches).
  await hitRateLimit(
    getDb(),
    tokenOrgId ? `api-write:${tokenOrgId}:${userId}` : `api-write:session:${userId}`,
    opts.writeLimit ?? API_WRITE_LIMIT,
    opts.now ?? new Date(),
  );
  return ctx;
}
