/**
 * Organization slugs are the first segment of every console URL (/<org>/catalog), so one equal to a top-level
 * route (/admin, /api, /signin, …) would shadow it and its owner would land on another page or a 404. These
 * are never given to an organization; a test keeps the list a superset of app/'s top-level routes.
 */
export const RESERVED_ORG_SLUGS: ReadonlySet<string> = new Set([
  "admin",
  "api",
  "auth",
  "invite",
  "signin",
  "signout",
  "signup",
  "verify-email",
  "reset-password",
  "forgot-password",
  "health",
  "static",
  "public",
  "assets",
  "favicon-ico",
  "robots-txt",
  "sitemap-xml",
  "manifest-json",
  "login",
  "logout",
  "register",
  "account",
  "settings",
  "new",
  "docs",
  "help",
  "status",
  "www",
]);

export function isReservedOrgSlug(slug: string): boolean {
  return RESERVED_ORG_SLUGS.has(slug);
}
