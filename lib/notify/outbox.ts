import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { type Executor, getDb } from "@/lib/db/client";
import { outbox } from "@/lib/db/schema";
import { mailFrom, smtpTransport } from "./transport";

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

/**
 * Send due outbox messages over SMTP. Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction, so
 * several workers never send the same row; a failure schedules a retry with backoff, and after MAX_ATTEMPTS the
 * row is marked failed (still visible to the operator).
 */
export async function deliverOutbox(opts: {
  now: Date;
  limit?: number;
}): Promise<{ sent: number; failed: number }> {
  const transport = smtpTransport();
  if (!transport) return { sent: 0, failed: 0 };
  const db = getDb();
  let sent = 0;
  let failed = 0;
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, opts.now)))
      .orderBy(outbox.createdAt)
      .limit(opts.limit ?? 20)
      .for("update", { skipLocked: true });
    for (const row of due) {
      try {
        await transport.sendMail({
          from: mailFrom(),
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody ?? undefined,
          // A stable Message-ID lets receivers drop a duplicate if a crash makes us send twice.
          messageId: `<${row.id}@forja.localhost>`,
        });
        await tx
          .update(outbox)
          .set({ status: "sent", sentAt: opts.now, attempts: row.attempts + 1, lastError: null })
          .where(eq(outbox.id, row.id));
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        await tx
          .update(outbox)
          .set({
            attempts,
            status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
            lastError: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500),
            nextAttemptAt: new Date(opts.now.getTime() + retryDelayMs(attempts)),
          })
          .where(eq(outbox.id, row.id));
        failed++;
      }
    }
  });
  return { sent, failed };
}

/** Operator view of the outbox, newest first. */
export async function listOutbox(opts: { limit?: number; offset?: number } = {}) {
  return getDb()
    .select()
    .from(outbox)
    .orderBy(desc(outbox.createdAt))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0);
}

export async function countOutbox(): Promise<number> {
  const [row] = await getDb().select({ n: sql<number>`count(*)::int` }).from(outbox);
  return row?.n ?? 0;
}
