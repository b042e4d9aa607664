import { expect, test } from "@playwright/test";
import { cookieOf, raw } from "./support/raw-http";

/**
 * The live pass of the bad-input fuzz: what only the running server does (Next's router, Node's HTTP
 * parser) and the in-process fuzz in test/fuzz cannot see. Every answer is a 4xx, API errors problem+json.
 */
test.describe("bad requests to the running server", () => {
  test("malformed %-escapes and NUL in the URL are 400 problem+json, pages and API alike", async ({
    baseURL,
  }) => {
    const owner = { cookie: cookieOf("owner") };
    for (const target of [
      "/%ZZ",
      "/acme-ai/%ZZ",
      "/api/v1/%ZZ",
      "/api/v1/orgs/%E0%A4%A/projects",
      "/%00/catalog",
      "/api/v1/orgs/%00/projects",
      "/acme-ai/catalog?region=%00",
      "/api/v1/orgs/acme-ai/instances?project=%00",
      "/api/v1/orgs/acme-ai/instances?region=%ZZ",
    ]) {
      const r = await raw(baseURL as string, "GET", target, owner);
      expect({ target, status: r.status, type: r.type }).toEqual({
        target,
        status: 400,
        type: "application/problem+json",
      });
      expect(JSON.parse(r.body)).toMatchObject({ status: 400, title: "Bad Request" });
    }
  });

  test("a method a route does not serve is a 405 problem with Allow", async ({ baseURL }) => {
    for (const [method, target] of [
      ["DELETE", "/api/v1/me"],
      ["PUT", "/api/v1/orgs/acme-ai/instances"],
      ["PATCH", "/api/v1/openapi.json"],
    ] as const) {
      const r = await raw(baseURL as string, method, target);
      expect({ target, status: r.status, type: r.type }).toEqual({
        target,
        status: 405,
        type: "application/problem+json",
      });
      expect(JSON.parse(r.body)).toMatchObject({ status: 405 });
    }
  });

  test("oversized headers are a 431 problem, not Node's empty answer", async ({ baseURL }) => {
    const r = await raw(baseURL as string, "GET", "/api/v1/me", { "x-padding": "a".repeat(40_000) });
    expect({ status: r.status, type: r.type }).toEqual({ status: 431, type: "application/problem+json" });
    expect(JSON.parse(r.body)).toMatchObject({ status: 431 });
    // Under the limit (a long bearer token and cookies) still reaches the API: 401 for a made-up token.
    const ok = await raw(baseURL as string, "GET", "/api/v1/me", {
      authorization: `Bearer forja_${"a".repeat(8000)}`,
    });
    expect(ok.status).toBe(401);
  });

  test("a server action posted with a foreign Origin is refused with a 4xx, not a 500", async ({
    baseURL,
  }) => {
    const r = await raw(
      baseURL as string,
      "POST",
      "/acme-ai/settings",
      {
        cookie: cookieOf("owner"),
        origin: "http://evil.example",
        "next-action": "0".repeat(42),
        "content-type": "text/plain;charset=UTF-8",
      },
      '["acme-ai"]',
    );
    expect(r.status, r.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(r.status, r.body.slice(0, 300)).toBeLessThan(500);
  });
});
