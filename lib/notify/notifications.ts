import "server-only";
/*
 * In-console notifications. Kinds (CostNotices messages render them): budget.actual, budget.forecast,
 * budget.stopped, autoshutdown.warning, autoshutdown.stopped.
 */
import { and, count, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, nowOf } from "@/lib/core";
import { type Executor, getDb } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";

export type Notification = typeof notifications.$inferSelect;
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
  return rows[0]?.id ?? null;
}

/**
 * The organization's notifications for the signed-in user (theirs and the organization-wide ones), newest
 * first, for the console banner and list. Any role may read.
 */
export async function listNotifications(
  ctx: Ctx,
  orgSlug: string,
  opts: { unreadOnly?: boolean; limit?: number } = {},
): Promise<Notification[]> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  return (ctx.tx ?? getDb())
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.orgId, org.id),
        or(isNull(notifications.userId), eq(notifications.userId, userId)),
        opts.unreadOnly ? isNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(Math.min(opts.limit ?? 50, 200));
}

/** Mark notifications read (ids of this organization visible to the user; others are ignored). */
export async function markNotificationsRead(ctx: Ctx, orgSlug: string, ids: string[]): Promise<number> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (valid.length === 0) return 0;
  const rows = await (ctx.tx ?? getDb())
    .update(notifications)
    .set({ readAt: nowOf(ctx) })
    .where(
      and(
        eq(notifications.orgId, org.id),
        inArray(notifications.id, valid),
        or(isNull(notifications.userId), eq(notifications.userId, userId)),
        isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/**
 * How many of the organization's notifications the signed-in user has not read (theirs and the
 * organization-wide ones, as listNotifications shows them), counted in SQL for the console header.
 */
export async function countUnreadNotifications(ctx: Ctx, orgSlug: string): Promise<number> {
  const { org, userId } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const [row] = await (ctx.tx ?? getDb())
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.orgId, org.id),
        or(isNull(notifications.userId), eq(notifications.userId, userId)),
        isNull(notifications.readAt),
      ),
    );
  return row?.n ?? 0;
}
