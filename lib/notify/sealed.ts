import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What stored bodies hold where the secret goes; the operator's outbox view shows it as "redacted". */
export const SECRET_PLACEHOLDER = "{{forja:secret}}";

/**
 * The outbox's key, derived (HKDF-SHA256) from NEXTAUTH_SECRET: it lives in the environment or .data/, never
 * in the database, so a database dump or backup holds no working invitation or reset link. Every process
 * that enqueues or delivers email has NEXTAUTH_SECRET (lib/runtime/required-env).
 */
function key(): Buffer {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is needed to seal secrets in the outbox");
  return Buffer.from(hkdfSync("sha256", secret, "forja-outbox", "outbox secret v1", 32));
}

/** AES-256-GCM (authenticated): "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
export function seal(plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv, c.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function unseal(sealed: string): string {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || body === undefined) throw new Error("not a sealed outbox secret");
  const d = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
}

/** The stored form of a body: every occurrence of the secret replaced by the placeholder. */
export function redact(body: string, secret: string): string {
  return body.split(secret).join(SECRET_PLACEHOLDER);
}
