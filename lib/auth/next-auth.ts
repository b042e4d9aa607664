import "server-only";
/**
 * The thin next-auth glue (the one place lib/ touches the framework): Credentials with JWT sessions, plus an
 * optional generic OIDC provider configured by OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET (OIDC_NAME).
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import { isDomainError, RateLimitedError } from "@/lib/core";
import { clientAddress } from "./client-address";
import { verifyCredentials } from "./credentials";
import { resolveOidcUser } from "./sso";

type OidcClaims = { sub: string; email?: string; email_verified?: boolean; name?: string };

export function oidcConfigured(): boolean {
  return Boolean(process.env.OIDC_ISSUER && process.env.OIDC_CLIENT_ID && process.env.OIDC_CLIENT_SECRET);
}

export function oidcDisplayName(): string {
  return process.env.OIDC_NAME ?? "Single sign-on";
}

function oidcProvider(): OAuthConfig<OidcClaims> {
  const issuer = (process.env.OIDC_ISSUER ?? "").replace(/\/$/, "");
  return {
    id: "oidc",
    name: oidcDisplayName(),
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId: process.env.OIDC_CLIENT_ID,
    clientSecret: process.env.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    // Strict providers (oidc-provider's default, some enterprise IdPs) put only `sub` in the ID token when an
    // access token is issued, and serve email/name from userinfo. Merge both: the ID token is still validated,
    // and openid-client checks that userinfo's `sub` matches it.
    userinfo: {
      async request({ client, tokens }) {
        // next-auth hands over openid-client's TokenSet here (typed as its plain parameters).
        const set = tokens as TokenSet;
        const claims = set.claims();
        const info = set.access_token ? await client.userinfo(set) : {};
        return { ...claims, ...info, sub: claims.sub };
      },
    },
    profile(claims) {
      return { id: claims.sub, email: claims.email ?? null, name: claims.name ?? null };
    },
  };
}

// Without NEXTAUTH_URL, next-auth 4 falls back to http://localhost:3000 for every URL it makes (the callback
// redirect included), so a console reached as 127.0.0.1 or by its LAN name sent people to a host where they had
// no cookie. AUTH_TRUST_HOST makes it use the host the request came to instead; with NEXTAUTH_URL set, that
// fixed public URL wins (detectOrigin reads NEXTAUTH_URL first).
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

export function authOptions(): NextAuthOptions {
  return {
    secret: process.env.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials, req) {
          try {
            const user = await verifyCredentials(
              {},
              credentials ?? {},
              clientAddress(req.headers?.["x-forwarded-for"]),
            );
            return { id: user.id, email: user.email, name: user.name };
          } catch (err) {
            // next-auth hands this message to the sign-in form as `error`: send a code the form translates.
            if (err instanceof RateLimitedError) throw new Error(`rate_limited:${err.retryAfterSeconds}`);
            if (isDomainError(err)) throw new Error(err.code);
            console.error("[auth] sign-in failed", err);
            throw new Error("unavailable");
          }
        },
      }),
      ...(oidcConfigured() ? [oidcProvider()] : []),
    ],
    callbacks: {
      async jwt({ token, user, account, profile }) {
        if (account?.provider === "oidc" && profile) {
          const claims = profile as unknown as OidcClaims;
          const dbUser = await resolveOidcUser("oidc", {
            sub: claims.sub,
            email: claims.email,
            emailVerified: claims.email_verified,
            name: claims.name,
          });
          token.uid = dbUser.id;
          token.email = dbUser.email;
          token.name = dbUser.name;
        } else if (user) {
          token.uid = user.id;
        }
        return token;
      },
      async session({ session, token }) {
        if (session.user && typeof token.uid === "string") session.user.id = token.uid;
        return session;
      },
    },
  };
}
