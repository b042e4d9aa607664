/**
 * Where to go after signing in: a path on this console, never another site. The value is resolved the way a
 * browser would resolve it against the current origin (so "/%09/evil.example", whose tab the URL parser drops,
 * is seen as "//evil.example", another host) and kept only when the result is same-origin: the request's own
 * origin, or the configured public URL. What comes back is always a path starting with exactly one slash.
 */
export function sameOriginPath(raw: unknown, requestOrigin: string): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || value === "") return "/";
  const allowed = new Set<string>();
  for (const o of [requestOrigin, process.env.NEXTAUTH_URL]) {
    if (!o) continue;
    try {
      allowed.add(new URL(o).origin);
    } catch {
      // An unusable origin allows nothing.
    }
  }
  const base = [...allowed][0] ?? "http://forja.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (!allowed.has(url.origin)) return "/";
  // "http://us//evil.example" is same-origin, but its path "//evil.example" would leave as a redirect target.
  return `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}${url.hash}`;
}

/** The origin a request was made to, from the headers the web server set (host, x-forwarded-proto). */
export function requestOrigin(headers: { get(name: string): string | null }): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "localhost";
  const proto = headers.get("x-forwarded-proto") === "https" ? "https" : "http";
  return `${proto}://${host.split(",")[0]?.trim()}`;
}
