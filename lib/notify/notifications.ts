import "server-only";
/*
 * In-console notifications. Kinds (CostNotices messages render them): budget.actual, budget.forecast,
 * budget.stopped, autoshutdown.warning, autoshutdown.stopped. Read state is per person (notification_reads).
 */
import { and, count, desc, eq, inArray, isNull, not, or, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, nowOf } from "@/lib/core";
import { type Executor, readDb } from "@/lib/db/client";
import { notificationReads, notifications } from "@/lib/db/schema";
import { emitWebhookEvents, notificationEventType } from "./webhook-events";

/** A notification as one user sees it: readAt is when that user read it (null: unread for them). */
export type Notification = typeof notifications.$inferSelect & { readAt: Date | null };
export type NotificationSeverity = "info" | "warning" | "critical";

export type NewNotification = {
  orgId: string;
  /** Null: everyone in the organization. */
  userId?: string | null;
  kind: string;
  severity: NotificationSeverity;
  title: string;
  body: string;
  params: Record<string, string | number>;
  link?: string | null;
  /** Same key → written once. */
  dedupeKey?: string | null;
  at: Date;
};

/** Write an in-console notification in the caller's transaction (with the change or alert that caused it). */
export async function createNotification(exec: Executor, n: NewNotification): Promise<string | null> {
  const rows = await exec
    .insert(notifications)
    .values({
      orgId: n.orgId,
      userId: n.userId ?? null,
      kind: n.kind,
      severity: n.severity,
      title: n.title,
      body: n.body,
      params: n.params,
      link: n.link ?? null,
      dedupeKey: n.dedupeKey ?? null,
      createdAt: n.at,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  const id = rows[0]?.id ?? null;
  // Budget thresholds and shutdown warnings are webhook events too, emitted once with the notification.
  const type = id ? notificationEventType(n.kind) : null;
  if (type) {
    const key = n.params.instanceId ?? n.params.budgetId;
    await emitWebhookEvents(exec, [
      {
        orgId: n.orgId,
        type,
        orderingKey: key === undefined ? null : String(key),
        data: {
          kind: n.kind,
          severity: n.severity,
          title: n.title,
          body: n.body,
          params: n.params,
          link: n.link ?? null,
        },
        at: n.at,
      },
    ]);
  }
  return id;
}

/** Read by this user: the one place that says what "read" means (per person, see notification_reads). */
export function readBy(userId: string) {
  return sql`exists (select 1 from ${notificationReads} r
    where r.notification_id = ${notifications.id} and r.user_id = ${userId})`;
}

/** Notifications the user sees in the organization: theirs and the organization-wide ones. */
export function visibleTo(orgId: string, userId: string) {
  return and(
    eq(notifications.orgId, orgId),
    or(isNull(notifications.userId), eq(notifications.userId, userId)),
  );
}

/**
 * The organization's notifications for the signed-in user (theirs and the organization-wide ones), newest
 * first, with when this user read each, for the console banner and list. Any role may read.
 */
export async function listNotifications(
  ctx: Ctx,
  orgSlug: string,
  opts: { unreadOnly?: boolean; limit?: number } = {},
): Promise<Notification[]> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const rows = await readDb(ctx)
    .select({ n: notifications, readAt: notificationReads.readAt })
    .from(notifications)
    .leftJoin(
      notificationReads,
      and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, userId)),
    )
    .where(and(visibleTo(org.id, userId), opts.unreadOnly ? isNull(notificationReads.readAt) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(Math.min(opts.limit ?? 50, 200));
  return rows.map((r) => ({ ...r.n, readAt: r.readAt }));
}

/** Mark notifications read for this user (ids of this organization visible to them; others are ignored). */
export async function markNotificationsRead(ctx: Ctx, orgSlug: string, ids: string[]): Promise<number> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (valid.length === 0) return 0;
  const exec = readDb(ctx);
  const visible = await exec
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(visibleTo(org.id, userId), inArray(notifications.id, valid)));
  if (visible.length === 0) return 0;
  const now = nowOf(ctx);
  const rows = await exec
    .insert(notificationReads)
    .values(visible.map((v) => ({ notificationId: v.id, userId, readAt: now })))
    .onConflictDoNothing()
    .returning({ id: notificationReads.notificationId });
  return rows.length;
}

/**
 * How many of the organization's notifications the signed-in user has not read (theirs and the
 * organization-wide ones, as listNotifications shows them), counted in SQL for the console header.
 */
export async function countUnreadNotifications(ctx: Ctx, orgSlug: string): Promise<number> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const [row] = await readDb(ctx)
    .select({ n: count() })
    .from(notifications)
    .where(and(visibleTo(org.id, userId), not(readBy(userId))));
  return row?.n ?? 0;
}
