/**
 * Where the console is reached from outside, for links in emails (which must be absolute). Never taken from a
 * request's Host header: a forged Host would otherwise put an attacker's site in a reset or invitation link.
 * NEXTAUTH_URL when set (the public URL), else this machine's http://localhost:PORT.
 */
export function publicBaseUrl(): string {
  return (process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
}
