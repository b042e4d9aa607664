import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./tenancy";

export const outboxStatus = pgEnum("outbox_status", ["pending", "sent", "failed", "logged"]);

/**
 * Every email goes through this table first (transactional outbox): the row is written in the same
 * transaction as the change that caused it, then delivered by the worker. Without SMTP configured a
 * message is kept here as "logged" for the operator to read; nothing is dropped.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id").references(() => organizations.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    /**
     * A secret the email carries (an invitation, verification or reset token), AES-GCM encrypted with a key
     * derived from NEXTAUTH_SECRET, which is never in the database. The bodies hold a placeholder instead; the
     * deliverer puts the secret back in at send time and then clears this column.
     */
    secretSealed: text("secret_sealed"),
    /** Optional idempotency key: the same logical message is enqueued at most once. */
    dedupeKey: text("dedupe_key"),
    status: outboxStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("outbox_dedupe_key").on(t.dedupeKey),
    index("outbox_pending_idx").on(t.status, t.nextAttemptAt),
  ],
);
