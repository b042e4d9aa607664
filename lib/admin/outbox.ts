import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { type Ctx, NotFoundError, type Paged, paged, pageParam } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { organizations, outbox, outboxStatus } from "@/lib/db/schema";
import { SECRET_PLACEHOLDER } from "@/lib/notify";

export const OUTBOX_PAGE_SIZE = 50;
export const OUTBOX_STATUSES = outboxStatus.enumValues;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export type OutboxRow = {
  id: string;
  toAddress: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date;
  orgSlug: string | null;
};

const filtersSchema = z.object({
  status: z.enum(OUTBOX_STATUSES).optional().catch(undefined),
  page: pageParam,
});
export type OutboxFilters = { status?: string; page?: number | string };

const columns = {
  id: outbox.id,
  toAddress: outbox.toAddress,
  subject: outbox.subject,
  status: outbox.status,
  attempts: outbox.attempts,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  sentAt: outbox.sentAt,
  nextAttemptAt: outbox.nextAttemptAt,
  orgSlug: organizations.slug,
};

/** Outgoing email, newest first, with the count per status for the filter. */
export async function listOutboxMessages(
  ctx: Ctx,
  filters: OutboxFilters = {},
): Promise<Paged<OutboxRow> & { counts: Record<OutboxStatus, number> }> {
  requireOperator(ctx);
  const f = filtersSchema.parse(filters);
  const exec = readDb(ctx);
  const where = f.status ? eq(outbox.status, f.status) : undefined;
  const [rows, byStatus] = await Promise.all([
    exec
      .select(columns)
      .from(outbox)
      .leftJoin(organizations, eq(organizations.id, outbox.orgId))
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(OUTBOX_PAGE_SIZE)
      .offset((f.page - 1) * OUTBOX_PAGE_SIZE),
    exec.select({ status: outbox.status, n: count() }).from(outbox).groupBy(outbox.status),
  ]);
  const counts = Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, 0])) as Record<OutboxStatus, number>;
  for (const r of byStatus) counts[r.status] = r.n;
  const total = f.status ? counts[f.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  return { ...paged(rows, total, f.page, OUTBOX_PAGE_SIZE), counts };
}

export type OutboxMessage = OutboxRow & {
  textBody: string;
  htmlBody: string | null;
  dedupeKey: string | null;
};

const REDACTED = "[redacted]";
// Rows written before secrets were sealed (issue 12) still hold raw links; never show their tokens either.
const LEGACY_TOKEN_LINK = /(\/(?:invite|verify-email|reset-password)\/)[A-Za-z0-9_-]{20,}/g;

/** What the operator may read of a stored body: secrets (sealed or legacy) shown as "[redacted]". */
export function redactForOperator(body: string): string {
  return body.split(SECRET_PLACEHOLDER).join(REDACTED).replace(LEGACY_TOKEN_LINK, `$1${REDACTED}`);
}

/** One message with its text and HTML parts, secrets redacted. */
export async function getOutboxMessage(ctx: Ctx, id: string): Promise<OutboxMessage> {
  requireOperator(ctx);
  if (!z.uuid().safeParse(id).success) throw new NotFoundError("Message");
  const exec = readDb(ctx);
  const [row] = await exec
    .select({ ...columns, textBody: outbox.textBody, htmlBody: outbox.htmlBody, dedupeKey: outbox.dedupeKey })
    .from(outbox)
    .leftJoin(organizations, eq(organizations.id, outbox.orgId))
    .where(and(eq(outbox.id, id)));
  if (!row) throw new NotFoundError("Message");
  return {
    ...row,
    textBody: redactForOperator(row.textBody),
    htmlBody: row.htmlBody === null ? null : redactForOperator(row.htmlBody),
  };
}
