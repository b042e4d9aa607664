import { describe, expect, it } from "vitest";
import { authenticateHeaders } from "@/lib/api/authenticate";
import { UnauthorizedError, type UserActor } from "@/lib/core";
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
