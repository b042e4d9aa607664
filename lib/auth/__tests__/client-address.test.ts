import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies } from "../client-address";

// Issue 12 item 4: rate limits took the first X-Forwarded-For entry, a value the client chooses.
describe("clientAddress", () => {
  const none = trustedProxies("");

  it("without trusted proxies, is the peer the server appended, whatever the client sent before it", () => {
    expect(clientAddress("203.0.113.9", none)).toBe("203.0.113.9");
    expect(clientAddress("1.2.3.4, 5.6.7.8, 203.0.113.9", none)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:127.0.0.1", none)).toBe("127.0.0.1");
  });

  it("believes hops only as far as configured proxies wrote them: the right-most untrusted one", () => {
    const lb = trustedProxies("10.0.0.0/8, 192.0.2.7");
    // client → 198.51.100.4 (spoofed entry before it) → proxy 192.0.2.7 → lb 10.1.2.3 → us
    expect(clientAddress("6.6.6.6, 198.51.100.4, 192.0.2.7, 10.1.2.3", lb)).toBe("198.51.100.4");
    // A direct connection from outside is that address even if it claims to be forwarded.
    expect(clientAddress("10.9.9.9, 198.51.100.77", lb)).toBe("198.51.100.77");
    // Garbage is never a trusted proxy, so it is where the walk stops.
    expect(clientAddress("198.51.100.4, not-an-ip, 10.1.2.3", lb)).toBe("not-an-ip");
    expect(clientAddress("10.1.2.3", lb)).toBe("10.1.2.3");
  });

  it("has no address when the header is missing, and refuses a malformed proxy list", () => {
    expect(clientAddress(undefined, none)).toBe("unknown");
    expect(() => trustedProxies("10.0.0.0/99")).toThrow(/prefix/);
    expect(() => trustedProxies("proxy.internal")).toThrow(/not an IP/);
  });
});
