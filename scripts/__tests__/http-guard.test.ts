import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw } from "../../e2e/support/raw-http";
import { guarded, MAX_HEADER_BYTES, onClientError } from "../http-guard.mjs";

// A real HTTP server on loopback with the guard around a listener that stands in for Next.
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer(
    { maxHeaderSize: MAX_HEADER_BYTES },
    guarded((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("next");
    }),
  );
  server.on("clientError", onClientError);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the HTTP guard in front of next start", () => {
  it("answers malformed %-escapes and NUL in path or query with 400 problem+json before Next", async () => {
    for (const target of ["/%ZZ", "/a/%E0%A4%A", "/%00/x", "/x?q=%00", "/x?q=%ZZ"]) {
      const r = await raw(base, "GET", target);
      expect({ target, status: r.status, type: r.type }).toEqual({
        target,
        status: 400,
        type: "application/problem+json",
      });
      expect(JSON.parse(r.body)).toMatchObject({ status: 400, title: "Bad Request" });
    }
    expect((await raw(base, "GET", "/ok/%20path?q=a%20b")).body).toBe("next");
  });

  it("answers oversized headers with 431 problem+json, and lets ordinary ones through", async () => {
    const big = await raw(base, "GET", "/", { "x-pad": "a".repeat(MAX_HEADER_BYTES + 1) });
    expect({ status: big.status, type: big.type }).toEqual({ status: 431, type: "application/problem+json" });
    expect(JSON.parse(big.body)).toMatchObject({ status: 431 });
    expect((await raw(base, "GET", "/", { "x-pad": "a".repeat(20_000) })).body).toBe("next");
  });

  it("refuses a server action from a foreign Origin with 403, same-origin ones go on", async () => {
    const action = { "next-action": "abc", "content-type": "text/plain" };
    const foreign = await raw(
      base,
      "POST",
      "/org/settings",
      { ...action, origin: "http://evil.example" },
      "[]",
    );
    expect({ status: foreign.status, type: foreign.type }).toEqual({
      status: 403,
      type: "application/problem+json",
    });
    const host = new URL(base).host;
    expect(
      (await raw(base, "POST", "/org/settings", { ...action, origin: `http://${host}` }, "[]")).body,
    ).toBe("next");
    // A plain form post (no action id) is left to the app and its own Origin check.
    expect((await raw(base, "POST", "/x", { origin: "http://evil.example" }, "a=1")).body).toBe("next");
  });
});
