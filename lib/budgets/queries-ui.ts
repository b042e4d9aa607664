import "server-only";
import { and, count, eq, isNull, or } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";

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
