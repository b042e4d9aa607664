import "server-only";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { checkpoint } from "@/lib/core";
import { type Executor, getDb } from "@/lib/db/client";
import { outbox } from "@/lib/db/schema";
import { redact, SECRET_PLACEHOLDER, seal, unseal } from "./sealed";
import { isConnectionError, mailFrom, smtpTransport } from "./transport";

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  orgId?: string | null;
  /** Same key → enqueued once (e.g. "budget:<id>:<period>:<threshold>"). */
  dedupeKey?: string;
  /**
   * A secret that appears in the text/html (a token in a link). It is not stored in clear: the bodies keep a
   * placeholder and the secret is sealed (./sealed.ts) until the deliverer sends the message.
   */
  secret?: string;
};

export const MAX_ATTEMPTS = 8;

/**
 * Write an email to the outbox, in the caller's transaction when given, so the message exists if and only if
 * the change that caused it commits. Returns the row id, or null when the dedupe key was already used.
 * Every message starts pending: whether it is sent or kept ("logged") is the deliverer's decision, made by the
 * worker that has (or lacks) SMTP_URL, not by whichever web process happened to enqueue it.
 */
export async function enqueueEmail(exec: Executor, msg: EmailMessage): Promise<string | null> {
  const secret = msg.secret && msg.secret.length >= 8 ? msg.secret : undefined;
  const hide = (body: string) => (secret ? redact(body, secret) : body);
  const rows = await exec
    .insert(outbox)
    .values({
      orgId: msg.orgId ?? null,
      toAddress: msg.to,
      subject: msg.subject,
      textBody: hide(msg.text),
      htmlBody: msg.html ? hide(msg.html) : null,
      secretSealed: secret ? seal(secret) : null,
      dedupeKey: msg.dedupeKey ?? null,
      status: "pending",
    })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return rows[0]?.id ?? null;
}

/** Backoff for the n-th failed attempt of any delivery (email, webhook): 5 s, 10 s, 20 s … capped at `capMs`. */
export function backoffMs(attempts: number, capMs: number): number {
  return Math.min(5000 * 2 ** Math.max(0, attempts - 1), capMs);
}

/** An email's backoff: capped at 15 minutes. */
export function retryDelayMs(attempts: number): number {
  return backoffMs(attempts, 15 * 60 * 1000);
}

type Outcome = "none" | "sent" | "failed" | "unreachable";

/**
 * Send due outbox messages over SMTP, oldest first, up to `limit`. Each message is claimed, sent and marked
 * in its own short transaction (FOR UPDATE SKIP LOCKED): concurrent workers never send the same row, and a
 * sent message is recorded as soon as the server accepted it rather than at the end of a batch. A failure
 * schedules a retry with backoff; after MAX_ATTEMPTS the row is marked failed (still visible to the operator).
 * When the server cannot be reached at all the run stops early instead of burning an attempt on every row.
 */
export async function deliverOutbox(opts: {
  now: Date;
  limit?: number;
}): Promise<{ sent: number; failed: number; logged?: number }> {
  const transport = smtpTransport();
  if (!transport) return { sent: 0, failed: 0, logged: await keepUnsent() };
  const limit = opts.limit ?? 20;
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await deliverOne(transport, opts.now);
    if (outcome === "none") break;
    if (outcome === "sent") sent++;
    else failed++;
    if (outcome === "unreachable") break;
  }
  return { sent, failed };
}

/**
 * This deliverer has no SMTP: pending messages are kept for the operator to read ("logged"). Their sealed
 * secret is dropped, since nothing will ever send it; the bodies keep the placeholder.
 */
async function keepUnsent(): Promise<number> {
  const rows = await getDb()
    .update(outbox)
    .set({ status: "logged", secretSealed: null })
    .where(eq(outbox.status, "pending"))
    .returning({ id: outbox.id });
  return rows.length;
}

/** The stored body with its secret put back, for sending only (never written back). */
function reveal(body: string, sealed: string | null): string {
  return sealed ? body.split(SECRET_PLACEHOLDER).join(unseal(sealed)) : body;
}

async function deliverOne(transport: Transporter, now: Date): Promise<Outcome> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, now)))
      .orderBy(asc(outbox.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return "none";
    const attempts = row.attempts + 1;
    await checkpoint("outbox.claimed");
    try {
      await transport.sendMail({
        from: mailFrom(),
        to: row.toAddress,
        subject: row.subject,
        text: reveal(row.textBody, row.secretSealed),
        html: row.htmlBody ? reveal(row.htmlBody, row.secretSealed) : undefined,
        // A stable Message-ID lets receivers drop a duplicate if a crash between send and commit resends it.
        messageId: `<${row.id}@forja.localhost>`,
      });
      // Killed here (sent, not yet recorded), the row is sent again with the same Message-ID.
      await checkpoint("outbox.sent");
      await tx
        .update(outbox)
        .set({ status: "sent", sentAt: now, attempts, lastError: null, secretSealed: null })
        .where(eq(outbox.id, row.id));
      return "sent";
    } catch (err) {
      await tx
        .update(outbox)
        .set({
          attempts,
          status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
          ...(attempts >= MAX_ATTEMPTS ? { secretSealed: null } : {}),
          lastError: (err instanceof Error ? err.message : String(err)).slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        })
        .where(eq(outbox.id, row.id));
      return isConnectionError(err) ? "unreachable" : "failed";
    }
  });
}
