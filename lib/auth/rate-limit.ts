import "server-only";
import { sql } from "drizzle-orm";
import { RateLimitedError } from "@/lib/core";
import type { Executor } from "@/lib/db/client";

export type Limit = { max: number; windowSeconds: number };

/** Where a key stands in its window after one more hit. */
export type RateLimitState = { limit: Limit; count: number; remaining: number; resetSeconds: number };

/**
 * Fixed-window counter in PostgreSQL (shared by every web replica): one atomic upsert per hit. Returns where the
 * key stands (for RateLimit headers) without refusing anything.
 */
export async function countRateLimitHit(
  exec: Executor,
  key: string,
  limit: Limit,
  now: Date,
): Promise<RateLimitState> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const result = await exec.execute<{ count: number }>(sql`
    insert into rate_limit_hits (key, window_start, count) values (${key}, ${windowStart.toISOString()}, 1)
    on conflict (key) do update set
      count = case when rate_limit_hits.window_start = excluded.window_start then rate_limit_hits.count + 1 else 1 end,
      window_start = excluded.window_start
    returning count`);
  const count = Number(result.rows[0]?.count ?? 0);
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { limit, count, remaining: Math.max(0, limit.max - count), resetSeconds };
}

/** The same counter, throwing RateLimitedError when the key has used up its window. */
export async function hitRateLimit(exec: Executor, key: string, limit: Limit, now: Date): Promise<void> {
  const state = await countRateLimitHit(exec, key, limit, now);
  if (state.count > limit.max) throw new RateLimitedError(state.resetSeconds);
}

/**
 * Sign-in attempts. Per client address (no one address sprays many accounts) and per email × address (no one
 * address guesses one account's password): a stranger can only ever lock themselves out. The per-email
 * backstop is an hour long and generous, so only a spray from very many addresses reaches it.
 */
export const SIGN_IN_LIMITS = {
  perIp: { max: 20, windowSeconds: 300 },
  perEmailIp: { max: 8, windowSeconds: 300 },
  perEmail: { max: 100, windowSeconds: 3600 },
} satisfies Record<string, Limit>;

/** The counter keys of one sign-in attempt, per limit above. */
/**
 * The limit that applies; the per-address one can be raised with FORJA_SIGNIN_LIMIT_PER_IP where many people
 * sign in from one address (a campus NAT, or the e2e suite, whose every browser is 127.0.0.1).
 */
export function signInLimit(which: keyof typeof SIGN_IN_LIMITS): Limit {
  if (which !== "perIp") return SIGN_IN_LIMITS[which];
  const max = Number(process.env.FORJA_SIGNIN_LIMIT_PER_IP ?? SIGN_IN_LIMITS.perIp.max);
  return { ...SIGN_IN_LIMITS.perIp, max: Number.isFinite(max) && max > 0 ? max : SIGN_IN_LIMITS.perIp.max };
}

export function signInKeys(email: string, clientIp: string): Record<keyof typeof SIGN_IN_LIMITS, string> {
  return {
    perIp: `signin:ip:${clientIp}`,
    perEmailIp: `signin:email-ip:${email}:${clientIp}`,
    perEmail: `signin:email:${email}`,
  };
}

/**
 * Account creation per client IP: sign-up creates an organization each time, so one address may not mint them
 * in bulk. FORJA_SIGNUP_LIMIT_PER_HOUR overrides the default (the browser tests sign up many times from one
 * address).
 */
export function signUpLimit(): Limit {
  const max = Number(process.env.FORJA_SIGNUP_LIMIT_PER_HOUR ?? 10);
  return { max: Number.isFinite(max) && max > 0 ? max : 10, windowSeconds: 3600 };
}
