import nodemailer, { type Transporter } from "nodemailer";

let cached: { url: string; transporter: Transporter } | null = null;

/** The SMTP transport when SMTP_URL is set, else null (messages are kept in the outbox for the operator). */
export function smtpTransport(): Transporter | null {
  const url = process.env.SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) cached = { url, transporter: nodemailer.createTransport(url) };
  return cached.transporter;
}

export function mailFrom(): string {
  return process.env.MAIL_FROM ?? "Forja <no-reply@forja.localhost>";
}
