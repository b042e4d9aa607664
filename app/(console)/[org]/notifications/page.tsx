import Link from "next/link";
import { getNow, getTranslations } from "next-intl/server";
import { MarkReadButton } from "@/components/costs/mark-read-button";
import { notificationTexter } from "@/components/costs/notification-text";
import { RelativeTime } from "@/components/ui/relative-time";
import { listNotifications } from "@/lib/notify";
import { getOrgPageContext } from "../org-context";
import { markReadAction } from "./actions";

type Search = Record<string, string | string[] | undefined>;

export default async function NotificationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<Search>;
}) {
  const now = await getNow();
  const { org: slug } = await params;
  const unreadOnly = (await searchParams).show === "unread";
  const { ctx, org } = await getOrgPageContext(slug);
  const [t, list, text] = await Promise.all([
    getTranslations("Costs.notifications"),
    listNotifications(ctx, slug, { unreadOnly, limit: 100 }),
    notificationTexter(org.name),
  ]);
  const unread = list.filter((n) => !n.readAt).length;
  const action = markReadAction.bind(null, slug);
  const base = `/${slug}/notifications`;
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {unread > 0 ? <MarkReadButton action={action} all label={t("markAll")} /> : null}
      </div>
      <nav aria-label={t("filter")} className="flex gap-3 text-sm">
        <Link
          href={base}
          aria-current={unreadOnly ? undefined : "page"}
          className={unreadOnly ? "text-orange-800 underline dark:text-orange-300" : "font-semibold"}
        >
          {t("all")}
        </Link>
        <Link
          href={`${base}?show=unread`}
          aria-current={unreadOnly ? "page" : undefined}
          className={unreadOnly ? "font-semibold" : "text-orange-800 underline dark:text-orange-300"}
        >
          {t("unreadOnly")}
        </Link>
      </nav>
      {list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm dark:border-slate-700">
          {unreadOnly ? t("emptyUnread") : t("empty")}
        </p>
      ) : (
        <ul aria-label={t("listLabel")} className="flex flex-col gap-2">
          {list.map((n) => {
            const { title, body } = text(n);
            const isUnread = !n.readAt;
            return (
              <li
                key={n.id}
                className={`flex flex-col gap-1 rounded-lg border p-3 ${
                  isUnread
                    ? "border-orange-300 bg-orange-50/60 dark:border-orange-800 dark:bg-slate-900"
                    : "border-slate-200 dark:border-slate-800"
                }`}
              >
                <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
                  <span className="rounded-full border border-current px-2 py-0.5 font-medium">
                    {t(
                      `severity.${n.severity === "critical" || n.severity === "warning" ? n.severity : "info"}`,
                    )}
                  </span>
                  {isUnread ? (
                    <span className="font-semibold text-orange-800 dark:text-orange-300">{t("unread")}</span>
                  ) : null}
                  <RelativeTime date={n.createdAt} now={now} />
                </div>
                <h2 className={`text-sm ${isUnread ? "font-semibold" : "font-medium"}`}>{title}</h2>
                <p className="text-sm text-slate-700 dark:text-slate-300">{body}</p>
                <div className="flex flex-wrap items-center gap-3 text-sm">
                  {n.link?.startsWith("/") ? (
                    <Link href={n.link} className="text-orange-800 underline dark:text-orange-300">
                      {t("open")}
                    </Link>
                  ) : null}
                  {isUnread ? (
                    <MarkReadButton action={action} id={n.id} label={t("markRead")} context={title} />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
