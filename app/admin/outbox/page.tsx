import Link from "next/link";
import { getNow, getTranslations } from "next-intl/server";
import { OutboxStatusBadge } from "@/components/admin/outbox-status";
import { EmptyState, PageHeader, tableClass, tdClass, thClass } from "@/components/admin/page-header";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { listOutboxMessages, OUTBOX_STATUSES, type OutboxStatus } from "@/lib/admin";
import { first, getAdminContext, type SearchParams } from "../admin-context";

export default async function OutboxPage({ searchParams }: { searchParams: SearchParams }) {
  const now = await getNow();
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const raw = first(sp.status);
  const status = OUTBOX_STATUSES.find((s) => s === raw);
  const [list, t] = await Promise.all([
    listOutboxMessages(ctx, { status, page: first(sp.page) }),
    getTranslations("Admin.outbox"),
  ]);
  const all = Object.values(list.counts).reduce((a, b) => a + b, 0);
  const filters: Array<{ value?: OutboxStatus; label: string; n: number }> = [
    { label: t("all"), n: all },
    ...OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`), n: list.counts[s] })),
  ];
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <nav aria-label={t("filterLabel")} className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {filters.map((f) => (
            <li key={f.label}>
              <Link
                href={f.value ? `/admin/outbox?status=${f.value}` : "/admin/outbox"}
                aria-current={f.value === status ? "page" : undefined}
                className={`inline-block rounded-full border px-3 py-1 text-sm ${
                  f.value === status
                    ? "border-orange-700 bg-orange-50 font-semibold text-orange-900 dark:bg-slate-800 dark:text-orange-300"
                    : "border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
                }`}
              >
                {t("filterOption", { label: f.label, count: f.n })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {list.rows.length === 0 ? (
        <EmptyState
          title={status ? t("emptyStatus", { status: t(`status.${status}`) }) : t("empty")}
          body={t("emptyHint")}
        />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("caption")}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {t("subject")}
                </th>
                <th scope="col" className={thClass}>
                  {t("to")}
                </th>
                <th scope="col" className={thClass}>
                  {t("statusLabel")}
                </th>
                <th scope="col" className={thClass}>
                  {t("attempts")}
                </th>
                <th scope="col" className={thClass}>
                  {t("lastError")}
                </th>
                <th scope="col" className={thClass}>
                  {t("created")}
                </th>
                <th scope="col" className={thClass}>
                  {t("sent")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((m) => (
                <tr key={m.id}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    <Link
                      href={`/admin/outbox/${m.id}`}
                      className="text-orange-700 underline dark:text-orange-400"
                    >
                      {m.subject}
                    </Link>
                  </th>
                  <td className={`${tdClass} break-all`}>{m.toAddress}</td>
                  <td className={tdClass}>
                    <OutboxStatusBadge status={m.status} />
                  </td>
                  <td className={tdClass}>{m.attempts}</td>
                  <td className={`${tdClass} max-w-xs break-words text-xs`}>{m.lastError ?? "—"}</td>
                  <td className={tdClass}>
                    <RelativeTime date={m.createdAt} now={now} />
                  </td>
                  <td className={tdClass}>{m.sentAt ? <RelativeTime date={m.sentAt} now={now} /> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        path="/admin/outbox"
        params={{ status }}
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
      />
    </>
  );
}
