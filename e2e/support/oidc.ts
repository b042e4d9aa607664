import http from "node:http";
import Provider from "oidc-provider";
import { freePort } from "../../lib/db/embedded";

export const OIDC_TEST_USER = { sub: "sso-user-1", email: "sso.user@acme.test", name: "Sso User" };

/**
 * A real OpenID Connect provider (package oidc-provider) on loopback, with its built-in development login
 * screens: any login name signs in as an account whose email is "<login>" when it contains "@".
 */
export async function startTestOidcProvider(redirectUri: string) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "forja-e2e";
  const clientSecret = "forja-e2e-client-secret";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => false },
    async findAccount(_ctx, id) {
      const email = id.includes("@") ? id : OIDC_TEST_USER.email;
      return {
        accountId: id,
        async claims() {
          return { sub: id, email, email_verified: true, name: email.split("@")[0] ?? id };
        },
      };
    },
  });
  provider.proxy = false;
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
