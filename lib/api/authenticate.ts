import "server-only";
import { countRateLimitHit, type RateLimitState, requestOrigin } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import { type Ctx, ForbiddenError, RateLimitedError, UnauthorizedError, type UserActor } from "@/lib/core";
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

export type ApiLimits = { read: WriteLimit; write: WriteLimit };
export type ApiRate = RateLimitState & { policy: "read" | "write" };

function envLimit(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * Calls per API token (or per signed-in user for the console's session) per minute, reads and writes counted
 * apart. A runaway CI loop gets 429s (with Retry-After) on its own token instead of filling the queue or the
 * database, while the same person's other tokens (a dashboard, another pipeline) keep working; quota and
 * budget caps, not the rate limit, bound what all of them together can launch.
 */
export const API_LIMITS: ApiLimits = {
  read: { max: envLimit("FORJA_API_READ_LIMIT", 600), windowSeconds: 60 },
  write: { max: envLimit("FORJA_API_WRITE_LIMIT", 120), windowSeconds: 60 },
};
/** Kept for callers that only tune writes. */
export const API_WRITE_LIMIT: WriteLimit = API_LIMITS.write;

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

type RequestOpts = { session?: SessionLookup; now?: Date; writeLimit?: WriteLimit; readLimit?: WriteLimit };

/**
 * Authenticate and count the call against its rate limit, without refusing it yet: the caller sends the
 * RateLimit headers on whatever it answers, the 429 included. A read-only token is refused any method but
 * GET/HEAD here (lib/access caps its role at viewer too, for every other entry point).
 */
export async function meteredRequest(
  req: Request,
  opts: RequestOpts = {},
): Promise<{ ctx: ApiCtx; rate: ApiRate }> {
  const ctx = await authenticateHeaders(req.headers, opts);
  const { tokenOrgId, tokenId, userId, tokenScope } = ctx.actor;
  const read = READ_METHODS.has(req.method);
  if (!read && tokenScope === "read") {
    throw new ForbiddenError("This API token is read-only; create a write token for this", {
      reason: "token_read_only",
    });
  }
  if (!read && !tokenOrgId) assertSameOrigin(req);
  const policy = read ? "read" : "write";
  const limit = read ? (opts.readLimit ?? API_LIMITS.read) : (opts.writeLimit ?? API_LIMITS.write);
  const who = tokenId ? `token:${tokenId}` : `session:${userId}`;
  const state = await countRateLimitHit(getDb(), `api-${policy}:${who}`, limit, opts.now ?? new Date());
  return { ctx, rate: { ...state, policy } };
}

/** The IETF RateLimit-Policy / RateLimit fields (draft-ietf-httpapi-ratelimit-headers): quota, window, left, reset. */
export function rateLimitHeaders(rate: ApiRate): Record<string, string> {
  return {
    "ratelimit-policy": `"${rate.policy}";q=${rate.limit.max};w=${rate.limit.windowSeconds}`,
    ratelimit: `"${rate.policy}";r=${rate.remaining};t=${rate.resetSeconds}`,
  };
}

export function assertWithinLimit(rate: ApiRate): void {
  if (rate.count > rate.limit.max) throw new RateLimitedError(rate.resetSeconds);
}

export async function authenticateRequest(req: Request, opts: RequestOpts = {}): Promise<ApiCtx> {
  const { ctx, rate } = await meteredRequest(req, opts);
  assertWithinLimit(rate);
  return ctx;
}
