import { describe, expect, it } from "vitest";
import { NotFoundError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newBillingOrg, testClock } from "@/lib/metering/__tests__/fixtures";
import {
  countUnreadNotifications,
  createNotification,
  listNotifications,
  markNotificationsRead,
} from "@/lib/notify";

const at = new Date("2030-06-01T10:00:00Z");
const notice = (orgId: string, userId: string | null, key: string) => ({
  orgId,
  userId,
  kind: "budget.actual",
  severity: "warning" as const,
  title: "t",
  body: "b",
  params: {},
  dedupeKey: `${key}-${Math.random()}`,
  at,
});

describe("countUnreadNotifications", () => {
  it("counts the reader's unread notifications and the organization-wide ones, as the list shows them", async () => {
    const org = await newBillingOrg(testClock(at), "unread");
    const member = await org.as("member");
    const db = getDb();
    await createNotification(db, notice(org.org.id, null, "all"));
    await createNotification(db, notice(org.org.id, null, "all2"));
    await createNotification(db, notice(org.org.id, member.actor.userId, "mine"));
    await createNotification(db, notice(org.org.id, org.actor.userId, "owners"));

    expect(await countUnreadNotifications(member, org.slug)).toBe(3);
    expect(await countUnreadNotifications(org.ctx, org.slug)).toBe(3);
    const visible = await listNotifications(member, org.slug, { unreadOnly: true });
    expect(visible).toHaveLength(3);

    const wide = visible.find((n) => n.userId === null);
    const mine = visible.find((n) => n.userId === member.actor.userId);
    // Issue 12 item 13: read state is per person; an organization-wide notice read by one stays unread for others.
    await markNotificationsRead(member, org.slug, [wide?.id ?? ""]);
    expect(await countUnreadNotifications(member, org.slug)).toBe(2);
    expect(await countUnreadNotifications(org.ctx, org.slug)).toBe(3);
    await markNotificationsRead(member, org.slug, [mine?.id ?? ""]);
    expect(await countUnreadNotifications(member, org.slug)).toBe(1);
    expect(await countUnreadNotifications(org.ctx, org.slug)).toBe(3);
    expect((await listNotifications(member, org.slug)).find((n) => n.id === wide?.id)?.readAt).toEqual(at);
    expect((await listNotifications(org.ctx, org.slug)).find((n) => n.id === wide?.id)?.readAt).toBeNull();
  });

  it("a viewer's mark-all-read leaves the admins' budget banner unread (issue 12 item 13)", async () => {
    const org = await newBillingOrg(testClock(at), "unread-v");
    const viewer = await org.as("viewer");
    const admin = await org.as("admin");
    await createNotification(getDb(), { ...notice(org.org.id, null, "exceeded"), severity: "critical" });
    const all = await listNotifications(viewer, org.slug, { unreadOnly: true });
    expect(
      await markNotificationsRead(
        viewer,
        org.slug,
        all.map((n) => n.id),
      ),
    ).toBe(1);
    expect(
      await markNotificationsRead(
        viewer,
        org.slug,
        all.map((n) => n.id),
      ),
    ).toBe(0);
    expect(await countUnreadNotifications(viewer, org.slug)).toBe(0);
    expect(await countUnreadNotifications(admin, org.slug)).toBe(1);
    expect(await listNotifications(admin, org.slug, { unreadOnly: true })).toHaveLength(1);
  });

  it("refuses another organization's member with NotFound", async () => {
    const a = await newBillingOrg(testClock(at), "unread-a");
    const b = await newBillingOrg(testClock(at), "unread-b");
    await createNotification(getDb(), notice(a.org.id, null, "a"));
    await expect(countUnreadNotifications(b.ctx, a.slug)).rejects.toBeInstanceOf(NotFoundError);
    expect(await countUnreadNotifications(b.ctx, b.slug)).toBe(0);
  });
});
