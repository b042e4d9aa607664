import { BlockList, isIP } from "node:net";

/**
 * The address a request really came from, for rate limits. The web server (scripts/serve.mjs) appends the TCP
 * peer to X-Forwarded-For, so the right-most entry is always who connected to us. Entries to its left were
 * written by that peer and are believed only while the hop that wrote them is a configured proxy
 * (FORJA_TRUSTED_PROXIES: comma-separated addresses or CIDRs). The answer is the right-most untrusted hop: a
 * client cannot choose it by sending its own X-Forwarded-For, because its own address is appended after it.
 */
export function clientAddress(forwardedFor: unknown, trusted: BlockList = trustedProxies()): string {
  const raw = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
  if (typeof raw !== "string") return "unknown";
  const hops = raw
    .split(",")
    .map((h) => normalize(h.trim()))
    .filter((h) => h !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!isTrusted(trusted, hop)) return hop;
  }
  // Every hop is one of our proxies (a health check from the proxy itself): the left-most is the origin.
  return hops[0] ?? "unknown";
}

function normalize(hop: string): string {
  // An IPv4 client seen on a dual-stack socket is "::ffff:1.2.3.4"; key it like the plain address.
  return hop.startsWith("::ffff:") && isIP(hop.slice(7)) === 4 ? hop.slice(7) : hop;
}

function isTrusted(list: BlockList, hop: string): boolean {
  const family = isIP(hop);
  // Anything that is not an address (garbage, "unknown", a port suffix) cannot be one of our proxies.
  if (family === 0) return false;
  return list.check(hop, family === 4 ? "ipv4" : "ipv6");
}

let cached: { spec: string; list: BlockList } | null = null;

/** FORJA_TRUSTED_PROXIES parsed once per value; an entry that is not an address or CIDR is a startup error. */
export function trustedProxies(spec = process.env.FORJA_TRUSTED_PROXIES ?? ""): BlockList {
  if (cached?.spec === spec) return cached.list;
  const list = new BlockList();
  for (const entry of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr = "", bits] = entry.split("/");
    const family = isIP(addr);
    if (family === 0) throw new Error(`FORJA_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
        throw new Error(`FORJA_TRUSTED_PROXIES: "${entry}" has a bad prefix length`);
      }
      list.addSubnet(addr, prefix, type);
    }
  }
  cached = { spec, list };
  return list;
}
