import { describe, expect, it } from "vitest";
import { requireOrgAccess } from "@/lib/access";
import {
  authenticateHeaders,
  authenticateRequest,
  meteredRequest,
  rateLimitHeaders,
} from "@/lib/api/authenticate";
import { errorToProblem } from "@/lib/api/problem";
import { ForbiddenError, RateLimitedError, UnauthorizedError, type UserActor } from "@/lib/core";
import { createApiToken } from "@/lib/tenancy";
import { newTenant } from "@/test/factories";
import { tokenFor } from "./support";

const sessionActor: UserActor = { kind: "user", userId: "u1", email: "s@example.test", isOperator: true };

/** Records whether the session was consulted; the real next-auth lookup is exercised by the e2e journeys. */
function sessionLookup(actor: UserActor | null) {
  const seen = { calls: 0 };
  const session = async () => {
    seen.calls++;
    return actor;
  };
  return { seen, session };
}

describe("authenticateHeaders", () => {
  it("a bearer token wins and never falls back to the session cookie, even when it is refused", async () => {
    const t = await newTenant("auth");
    const token = await tokenFor(t.ctx, t.org.slug);
    const { seen, session } = sessionLookup(sessionActor);
    const ok = await authenticateHeaders(new Headers({ authorization: `bearer ${token}`, cookie: "a=b" }), {
      session,
    });
    expect(ok.actor).toMatchObject({ userId: t.user.id, tokenOrgId: t.org.id });
    const bad = authenticateHeaders(new Headers({ authorization: "Bearer forja_nope", cookie: "a=b" }), {
      session,
    });
    await expect(bad).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen.calls).toBe(0);
  });

  it("without a token: the session when there is a cookie, else 401 without looking", async () => {
    const signedIn = sessionLookup(sessionActor);
    const ctx = await authenticateHeaders(new Headers({ cookie: "next-auth.session-token=x" }), signedIn);
    expect(ctx.actor).toBe(sessionActor);

    const noCookie = sessionLookup(sessionActor);
    await expect(authenticateHeaders(new Headers(), noCookie)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(noCookie.seen.calls).toBe(0);

    const signedOut = sessionLookup(null);
    await expect(authenticateHeaders(new Headers({ cookie: "x=y" }), signedOut)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(signedOut.seen.calls).toBe(1);
  });
});

describe("authenticateRequest", () => {
  it("limits writes per token with a 429 and Retry-After; reads count apart", async () => {
    const t = await newTenant("limit");
    const token = await tokenFor(t.ctx, t.org.slug);
    const writeLimit = { max: 2, windowSeconds: 60 };
    const now = new Date("2031-03-01T10:00:10Z");
    const req = (method: string) =>
      new Request("http://forja.test/api/v1/x", { method, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 5; i++) await authenticateRequest(req("GET"), { writeLimit, now });
    await authenticateRequest(req("POST"), { writeLimit, now });
    await authenticateRequest(req("POST"), { writeLimit, now });
    const err = await authenticateRequest(req("POST"), { writeLimit, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    const res = errorToProblem(err);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("50");
    // Per token, not per person: the same user's other token still writes in this window.
    const other = await tokenFor(t.ctx, t.org.slug);
    const otherReq = new Request("http://forja.test/api/v1/x", {
      method: "POST",
      headers: { authorization: `Bearer ${other}` },
    });
    await expect(meteredRequest(otherReq, { writeLimit, now })).resolves.toMatchObject({
      rate: { policy: "write", count: 1, remaining: 1 },
    });
    // The next window starts afresh.
    await authenticateRequest(req("POST"), { writeLimit, now: new Date("2031-03-01T10:01:00Z") });
    // Reads have their own budget: used up, they are refused too, while writes still pass.
    const readLimit = { max: 6, windowSeconds: 60 };
    const read = await meteredRequest(req("GET"), { readLimit, now });
    expect(read.rate).toMatchObject({ policy: "read", count: 6, remaining: 0, resetSeconds: 50 });
    expect(rateLimitHeaders(read.rate)).toEqual({
      "ratelimit-policy": '"read";q=6;w=60',
      ratelimit: '"read";r=0;t=50',
    });
    await expect(authenticateRequest(req("GET"), { readLimit, now })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });

  it("a read-only token reads, and is refused every write before anything runs", async () => {
    const t = await newTenant("readonly");
    const { secret } = await createApiToken(t.ctx, t.org.slug, { name: "ro", scope: "read" });
    const req = (method: string) =>
      new Request("http://forja.test/api/v1/x", { method, headers: { authorization: `Bearer ${secret}` } });
    const { actor } = await authenticateRequest(req("GET"));
    expect(actor).toMatchObject({ tokenScope: "read", tokenOrgId: t.org.id });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const err = await authenticateRequest(req(method)).catch((e: unknown) => e);
      expect(err, method).toBeInstanceOf(ForbiddenError);
      expect((err as ForbiddenError).reason).toBe("token_read_only");
    }
    // The library gate caps it at viewer for every other entry point too (a member's token, read-only).
    await expect(requireOrgAccess({ actor }, t.org.slug, "viewer")).resolves.toMatchObject({ role: "owner" });
    await expect(requireOrgAccess({ actor }, t.org.slug, "member")).rejects.toMatchObject({
      reason: "token_read_only",
    });
  });

  // Issue 12 item 15: cookie-authenticated API writes had no Origin check and no write limit.
  it("refuses a write with the session cookie unless it comes from this origin, and limits session writes", async () => {
    const signedIn = sessionLookup({ ...sessionActor, userId: `u-${Date.now()}` });
    const writeLimit = { max: 2, windowSeconds: 60 };
    const now = new Date("2031-04-01T10:00:10Z");
    const req = (method: string, origin?: string) =>
      new Request("http://forja.test/api/v1/x", {
        method,
        headers: { cookie: "next-auth.session-token=x", host: "forja.test", ...(origin ? { origin } : {}) },
      });
    for (const bad of [undefined, "https://evil.example", "http://forja.test.evil.example", "null"]) {
      const err = await authenticateRequest(req("POST", bad), { ...signedIn, writeLimit, now }).catch(
        (e: unknown) => e,
      );
      expect(err, String(bad)).toBeInstanceOf(ForbiddenError);
      expect(errorToProblem(err).status).toBe(403);
    }
    // Reads need no Origin; same-origin writes pass until the session's own write limit.
    await authenticateRequest(req("GET"), { ...signedIn, writeLimit, now });
    await authenticateRequest(req("POST", "http://forja.test"), { ...signedIn, writeLimit, now });
    await authenticateRequest(req("DELETE", "http://forja.test"), { ...signedIn, writeLimit, now });
    await expect(
      authenticateRequest(req("POST", "http://forja.test"), { ...signedIn, writeLimit, now }),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });
});
