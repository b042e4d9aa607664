import { afterEach, describe, expect, it } from "vitest";
import { sameOriginPath } from "../callback-url";

// Issue 12 item 5: safeCallback only looked at the second character, so "/%09/evil.example" (→ "//evil.example"
// once the URL parser strips the tab) left the site after sign-in.
describe("sameOriginPath", () => {
  const origin = "http://127.0.0.1:3000";
  afterEach(() => {
    delete process.env.NEXTAUTH_URL;
  });

  it("keeps paths on this console, with their query and hash", () => {
    expect(sameOriginPath("/acme/catalog?region=eu#x", origin)).toBe("/acme/catalog?region=eu#x");
    expect(sameOriginPath("http://127.0.0.1:3000/invite/abc", origin)).toBe("/invite/abc");
    expect(sameOriginPath(["/acme/usage", "/other"], origin)).toBe("/acme/usage");
  });

  it("refuses every way of naming another host", () => {
    for (const evil of [
      "/\t/evil.example",
      decodeURIComponent("/%09/evil.example"),
      "/\n/evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "https://evil.example/acme",
      "http://127.0.0.1:3001/acme",
      "javascript:alert(1)",
      " //evil.example",
    ]) {
      const out = sameOriginPath(evil, origin);
      expect(new URL(out, origin).origin, evil).toBe(origin);
      expect(out.startsWith("//")).toBe(false);
    }
    expect(sameOriginPath("http://127.0.0.1:3000//evil.example", origin)).toBe("/evil.example");
  });

  it("accepts the configured public URL too, and falls back to / for nothing or garbage", () => {
    process.env.NEXTAUTH_URL = "https://forja.example.com";
    expect(sameOriginPath("https://forja.example.com/acme", origin)).toBe("/acme");
    expect(sameOriginPath(undefined, origin)).toBe("/");
    expect(sameOriginPath(42, origin)).toBe("/");
    expect(sameOriginPath("http://[::1", origin)).toBe("/");
  });
});
