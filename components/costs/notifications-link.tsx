import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requireUserCtx } from "@/lib/auth/session";
import { countUnreadNotifications } from "@/lib/notify";

/** The header's way to the notifications list, with the unread count in its name and as a badge. */
export async function NotificationsLink({ org }: { org: string }) {
  const t = await getTranslations("Costs.notifications");
  let unread = 0;
  try {
    unread = await countUnreadNotifications(await requireUserCtx(), org);
  } catch (err) {
    console.error("[notifications-link] could not count unread notifications", err);
  }
  return (
    <Link
      href={`/${org}/notifications`}
      aria-label={t("unreadCount", { count: unread })}
      className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <span aria-hidden="true">{t("title")}</span>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="rounded-full bg-orange-700 px-1.5 text-xs font-semibold text-white tabular-nums"
        >
          {unread}
        </span>
      ) : null}
    </Link>
  );
}
