/**
 * Settings every process must share once it talks to a database server of its own (DATABASE_URL), i.e. when
 * it may be one replica of several. A generated session secret is per host, so behind a load balancer people
 * would be signed out at random; and the deliverer decides whether mail is sent (lib/notify), so a process
 * without SMTP would silently keep everyone's email in the outbox. FORJA_OUTBOX_ONLY=1 says that keeping
 * email in the outbox is what is wanted (development against a shared server).
 * Returns what is missing, each with its fix, or an empty list.
 */
export function missingSharedSettings(env: Record<string, string | undefined> = process.env): string[] {
  if (!env.DATABASE_URL) return [];
  const missing: string[] = [];
  if (!env.NEXTAUTH_SECRET) {
    missing.push(
      "NEXTAUTH_SECRET is not set. With DATABASE_URL every web process and worker must share one session secret: set NEXTAUTH_SECRET to the same long random value (e.g. `openssl rand -base64 32`) on each.",
    );
  }
  if (!env.SMTP_URL && env.FORJA_OUTBOX_ONLY !== "1") {
    missing.push(
      "SMTP_URL is not set. With DATABASE_URL set it on every process (e.g. smtp://user:pass@mail:587), or set FORJA_OUTBOX_ONLY=1 to keep emails in the outbox on purpose.",
    );
  }
  return missing;
}
