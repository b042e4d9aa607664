import nodemailer, { type Transporter } from "nodemailer";

let cached: { url: string; transporter: Transporter } | null = null;

/**
 * The SMTP transport when SMTP_URL is set, else null (messages are kept in the outbox for the operator).
 * Timeouts are short because delivery holds a row lock while it talks to the server: a relay that accepts the
 * connection and then hangs must not stall the worker for nodemailer's default minutes.
 */
export function smtpTransport(): Transporter | null {
  const url = process.env.SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) {
    cached = {
      url,
      transporter: nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    };
  }
  return cached.transporter;
}

export function mailFrom(): string {
  return process.env.MAIL_FROM ?? "Forja <no-reply@forja.localhost>";
}

/** True when the error means the server could not be reached at all (so the next message would fail too). */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; command?: unknown };
  return e.command === "CONN" || ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS"].includes(String(e.code));
}
