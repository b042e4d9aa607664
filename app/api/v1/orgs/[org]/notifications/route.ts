import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listNotifications, type Notification } from "@/lib/notify";

const notificationView = (n: Notification) => ({
  id: n.id,
  kind: n.kind,
  severity: n.severity,
  title: n.title,
  body: n.body,
  link: n.link,
  createdAt: n.createdAt.toISOString(),
  readAt: n.readAt?.toISOString() ?? null,
});

/** GET: the caller's notifications in this organization, newest first (`unread=1` for unread only). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const unreadOnly = url.searchParams.get("unread") === "1" || url.searchParams.get("unread") === "true";
  const all = await listNotifications(ctx, params.org, { unreadOnly, limit: 200 });
  return apiJson(pageOf(all.map(notificationView), url.searchParams, (n) => n.id));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
