/// <reference types="vite/client" />
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NOT_ALLOWED } from "@/lib/api/not-allowed";
import type { UserActor } from "@/lib/core";
import { API_ACCESS, isOrgLevel, type Level, rolesBelow, routePattern } from "./access";
import { type SweepFixture, sweepFixture, tenantDigest } from "./fixture";

/**
 * The API route sweep: every route handler under app/api, found from the tree itself, called in-process the
 * way Next.js calls it. For each method: anonymous is a 401; another organization's owner is a 404 (both on
 * this organization's URL and with this organization's ids under their own) and changes nothing; each role
 * below the required one is a 403 and changes nothing, even with a bad body and query (authorize first); the
 * required role gets through (the positive control, so the refusals above are about the role).
 */
// The console's session (next-auth) for the calls that send a cookie: the operator's, for operator-only routes.
const session = vi.hoisted(() => ({ actor: null as UserActor | null }));
vi.mock("@/lib/auth/session", async (orig) => ({
  ...(await orig<Record<string, unknown>>()),
  getActor: async () => session.actor,
}));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Record<string, unknown>;

const modules = import.meta.glob<RouteModule>("/app/api/**/route.ts");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
// A body and query that fail every schema: a refusal must come before validation.
const BAD_BODY = JSON.stringify({ kind: 7, name: ["x"], gpuCount: "many", term: {}, bogus: "\u0000" });
const BAD_QUERY = "page=-1&state=bogus&from=yesterday&metric=zzz&range=9y&limit=x&project=%20&gpuCount=3";

type Found = { key: string; file: string; pattern: string; method: string; handler: Handler };

const refused: Found[] = [];
const missing: string[] = [];

async function discover(): Promise<Found[]> {
  const out: Found[] = [];
  for (const [file, load] of Object.entries(modules)) {
    const mod = await load();
    const pattern = routePattern(file);
    for (const m of METHODS) {
      const h = mod[m] as (Handler & { [NOT_ALLOWED]?: boolean }) | undefined;
      const found = { key: `${m} ${pattern}`, file, pattern, method: m, handler: h as Handler };
      if (typeof h !== "function") {
        // Next.js would answer these with an empty 405; every /api/v1 route spreads notAllowed() instead.
        if (pattern.startsWith("/api/v1/")) missing.push(found.key);
      } else if (h[NOT_ALLOWED]) refused.push(found);
      else out.push(found);
    }
  }
  return out.sort((x, y) => x.key.localeCompare(y.key));
}

let fx: SweepFixture;
let routes: Found[];
beforeAll(async () => {
  [fx, routes] = await Promise.all([sweepFixture(), discover()]);
}, 120_000);

function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => m[1] as string);
}

async function send(
  r: Found,
  params: Record<string, string>,
  opts: { token?: string; bad?: boolean; session?: UserActor } = {},
): Promise<Response> {
  const path = r.pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, n: string) =>
    encodeURIComponent(params[n] ?? ""),
  );
  const url = `http://forja.test${path}${opts.bad ? `?${BAD_QUERY}` : ""}`;
  const headers = new Headers({ "content-type": "application/json" });
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  session.actor = opts.session ?? null;
  if (opts.session) {
    // The console's own page calling: same host and Origin.
    headers.set("cookie", "next-auth.session-token=sweep");
    headers.set("host", "forja.test");
    headers.set("origin", "http://forja.test");
  }
  const hasBody = r.method !== "GET" && r.method !== "DELETE";
  const req = new Request(url, {
    method: r.method,
    headers,
    body: hasBody ? (opts.bad ? BAD_BODY : "{}") : undefined,
  });
  return r.handler(req, { params: Promise.resolve(params) });
}

// Every failure is collected, so one run lists all the holes rather than the first.
const failures: string[] = [];

async function expectProblem(res: Response, status: number, what: string) {
  const type = res.headers.get("content-type");
  if (res.status !== status || type !== "application/problem+json") {
    failures.push(
      `${what}: expected ${status} problem+json, got ${res.status} ${type} ${(await res.text()).slice(0, 200)}`,
    );
  }
}

describe("API route sweep (every route handler under app/api)", () => {
  it("classifies every route handler it finds, and only routes that exist", () => {
    const found = routes.map((r) => r.key);
    const unclassified = found.filter((k) => !(k in API_ACCESS));
    const stale = Object.keys(API_ACCESS).filter((k) => !found.includes(k));
    expect(
      { unclassified, stale },
      "add each new route to API_ACCESS in test/sweep/access.ts with the least role allowed",
    ).toEqual({ unclassified: [], stale: [] });
    // The sweep must actually be sweeping something (a broken glob would pass vacuously).
    expect(found.length).toBeGreaterThan(15);
  });

  it("answers every other method of every /api/v1 route with a 405 problem naming what is allowed", async () => {
    expect(missing, "export the rest from notAllowed() in lib/api/not-allowed.ts").toEqual([]);
    expect(refused.length).toBeGreaterThan(40);
    for (const r of refused) {
      const res = await send(r, { org: fx.a.slug, id: crypto.randomUUID() }, { token: fx.tokens.owner });
      await expectProblem(res, 405, r.key);
      const allow = res.headers.get("allow") ?? "";
      const served = routes.filter((x) => x.pattern === r.pattern).map((x) => x.method);
      if (!served.every((m) => allow.includes(m)) || allow.includes(r.method)) {
        failures.push(`${r.key}: Allow is "${allow}" but the route serves ${served.join(", ")}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("anonymous → 401; another org's owner → 404; each weaker role → 403; nothing written; the role gets in", async () => {
    let checked = 0;
    for (const r of routes) {
      const level: Level | undefined = API_ACCESS[r.key];
      if (!level || r.pattern.startsWith("/api/auth/")) continue;
      const names = paramNames(r.pattern);
      const known = names.every((n) => n === "org" || n === "id");
      const params: Record<string, string> = {};
      for (const n of names) params[n] = n === "org" ? fx.a.slug : crypto.randomUUID();
      // An id of the kind the route serves (a budget's routes get a budget, the rest an instance).
      if (names.includes("id")) params.id = await fx.newIdFor(r.pattern);

      if (level === "public") {
        const res = await send(r, params);
        expect(res.status, r.key).toBeLessThan(500);
        checked++;
        continue;
      }
      const before = await tenantDigest(fx.a.org.id);
      await expectProblem(await send(r, params, { bad: true }), 401, `${r.key} anonymous`);

      if (isOrgLevel(level)) {
        await expectProblem(
          await send(r, params, { token: fx.otherOwner, bad: true }),
          404,
          `${r.key} as another organization's owner`,
        );
        if (names.includes("id")) {
          await expectProblem(
            // A good query here: their own org is theirs, so only the id is foreign.
            await send(r, { ...params, org: fx.b.slug }, { token: fx.otherOwner }),
            404,
            `${r.key} with this organization's id under another's`,
          );
        }
        for (const role of rolesBelow(level)) {
          await expectProblem(
            await send(r, params, { token: fx.tokens[role], bad: true }),
            403,
            `${r.key} as ${role}`,
          );
        }
      } else if (level === "operator") {
        const res = await send(r, params, { token: fx.tokens.owner, bad: true });
        if (![403, 404].includes(res.status))
          failures.push(`${r.key} as a non-operator owner: ${res.status}`);
      }
      if ((await tenantDigest(fx.a.org.id)) !== before) failures.push(`${r.key}: a refused call wrote rows`);

      if (level === "operator") {
        // A token never carries operator powers (lib/tenancy authenticateApiToken): even an operator's own
        // token is refused, so operator routes serve the console session only; lib tests are their positive control.
        await expectProblem(
          await send(r, params, { token: fx.operator, bad: true }),
          403,
          `${r.key} by token`,
        );
        if ((await tenantDigest(fx.a.org.id)) !== before)
          failures.push(`${r.key}: a refused call wrote rows`);
        // Positive control: the operator's console session gets through (whatever the body then earns).
        const res = await send(r, params, { session: fx.operatorActor as UserActor, bad: true });
        if ([401, 403].includes(res.status) || res.status >= 500) {
          failures.push(
            `${r.key} as operator (session) must get through: got ${res.status} ${(await res.text()).slice(0, 200)}`,
          );
        }
        checked++;
        continue;
      }
      // Positive control: the least allowed role is let through (whatever the body then earns).
      const token = isOrgLevel(level) ? fx.tokens[level] : fx.tokens.viewer;
      const res = await send(r, params, { token, bad: true });
      const refused = known ? [401, 403, 404] : [401, 403];
      if (refused.includes(res.status) || res.status >= 500) {
        failures.push(
          `${r.key} as ${level} must get through: got ${res.status} ${(await res.text()).slice(0, 200)}`,
        );
      }
      checked++;
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  }, 120_000);

  // Issue 10's Done-when, per endpoint: revoked and expired tokens, and the wrong scope.
  it("revoked or expired token → 401 everywhere; a read token → 403 on every write; only an admin token reaches /admin", async () => {
    let writes = 0;
    let admin = 0;
    for (const r of routes) {
      const level: Level | undefined = API_ACCESS[r.key];
      if (!level || level === "public" || !r.pattern.startsWith("/api/v1/")) continue;
      const params: Record<string, string> = {};
      for (const n of paramNames(r.pattern)) params[n] = n === "org" ? fx.a.slug : crypto.randomUUID();
      if (params.id) params.id = await fx.newIdFor(r.pattern);
      const before = await tenantDigest(fx.a.org.id);
      for (const t of ["revoked", "expired"] as const) {
        const res = await send(r, params, { token: fx.scoped[t], bad: true });
        await expectProblem(res, 401, `${r.key} with a ${t} token`);
      }
      const write = r.method !== "GET";
      if (write) {
        writes++;
        const res = await send(r, params, { token: fx.scoped.ownerRead, bad: true });
        await expectProblem(res.clone(), 403, `${r.key} with the owner's read token`);
        const reason = res.headers.get("content-type")?.includes("json")
          ? ((await res.json()) as { reason?: string }).reason
          : undefined;
        if (reason !== "token_read_only") failures.push(`${r.key} read token: reason ${reason}`);
      }
      if (level === "operator") {
        admin++;
        if (write) {
          const res = await send(r, params, { token: fx.scoped.operatorRead, bad: true });
          await expectProblem(res, 403, `${r.key} with the operator's read token`);
        }
        if ((await tenantDigest(fx.a.org.id)) !== before)
          failures.push(`${r.key}: a refused call wrote rows`);
        // Positive control: the operator's admin-scope token gets past authentication and authorization.
        const res = await send(r, params, { token: fx.scoped.operatorAdmin, bad: true });
        if ([401, 403].includes(res.status) || res.status >= 500) {
          failures.push(
            `${r.key} with the operator's admin token must get through: got ${res.status} ${(await res.text()).slice(0, 200)}`,
          );
        }
        continue;
      }
      if ((await tenantDigest(fx.a.org.id)) !== before) failures.push(`${r.key}: a refused call wrote rows`);
    }
    expect(failures).toEqual([]);
    expect({ writes: writes > 40, admin: admin > 20 }).toEqual({ writes: true, admin: true });
  }, 180_000);
});
