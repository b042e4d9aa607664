import "server-only";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { type Executor, getDb } from "@/lib/db/client";
import { outbox } from "@/lib/db/schema";
import { isConnectionError, mailFrom, smtpTransport } from "./transport";

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  orgId?: string | null;
  /** Same key → enqueued once (e.g. "budget:<id>:<period>:<threshold>"). */
  dedupeKey?: string;
};

export const MAX_ATTEMPTS = 8;

/**
 * Write an email to the outbox, in the caller's transaction when given, so the message exists if and only if
 * the change that caused it commits. Returns the row id, or null when the dedupe key was already used.
 */
export async function enqueueEmail(exec: Executor, msg: EmailMessage): Promise<string | null> {
  const rows = await exec
    .insert(outbox)
    .values({
      orgId: msg.orgId ?? null,
      toAddress: msg.to,
      subject: msg.subject,
      textBody: msg.text,
      htmlBody: msg.html ?? null,
      dedupeKey: msg.dedupeKey ?? null,
      // Without SMTP the message is kept for the operator to read in the console instead of being sent.
      status: process.env.SMTP_URL ? "pending" : "logged",
    })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return rows[0]?.id ?? null;
}

/** Backoff for the n-th failed attempt: 5 s, 10 s, 20 s … capped at 15 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5000 * 2 ** Math.max(0, attempts - 1), 15 * 60 * 1000);
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
}): Promise<{ sent: number; failed: number }> {
  const transport = smtpTransport();
  if (!transport) return { sent: 0, failed: 0 };
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
    try {
      await transport.sendMail({
        from: mailFrom(),
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody ?? undefined,
        // A stable Message-ID lets receivers drop a duplicate if a crash between send and commit resends it.
        messageId: `<${row.id}@forja.localhost>`,
      });
      await tx
        .update(outbox)
        .set({ status: "sent", sentAt: now, attempts, lastError: null })
        .where(eq(outbox.id, row.id));
      return "sent";
    } catch (err) {
      await tx
        .update(outbox)
        .set({
          attempts,
          status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
          lastError: (err instanceof Error ? err.message : String(err)).slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        })
        .where(eq(outbox.id, row.id));
      return isConnectionError(err) ? "unreachable" : "failed";
    }
  });
}
