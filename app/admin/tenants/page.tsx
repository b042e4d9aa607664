import Form from "next/form";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader, tableClass, tdClass, thClass } from "@/components/admin/page-header";
import { Pagination } from "@/components/ui/pagination";
import { listTenants } from "@/lib/admin";
import { first, getAdminContext, type SearchParams } from "../admin-context";

export default async function TenantsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const q = first(sp.q)?.trim() || undefined;
  const [list, t, format] = await Promise.all([
    listTenants(ctx, { q, page: first(sp.page) }),
    getTranslations("Admin.tenants"),
    getFormatter(),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Form action="/admin/tenants" role="search" className="mb-4 flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("searchLabel")}</span>
          <input
            type="search"
            name="q"
            defaultValue={q ?? ""}
            maxLength={100}
            className="w-64 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </label>
        <button
          type="submit"
          className="rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
        >
          {t("search")}
        </button>
        {q && (
          <Link
            href="/admin/tenants"
            className="py-1.5 text-sm text-orange-700 underline dark:text-orange-400"
          >
            {t("clear")}
          </Link>
        )}
      </Form>
      {list.rows.length === 0 ? (
        <EmptyState title={q ? t("noMatch", { q }) : t("empty")} body={q ? t("noMatchHint") : undefined} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("caption")}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {t("name")}
                </th>
                <th scope="col" className={thClass}>
                  {t("members")}
                </th>
                <th scope="col" className={thClass}>
                  {t("owners")}
                </th>
                <th scope="col" className={thClass}>
                  {t("jurisdictions")}
                </th>
                <th scope="col" className={thClass}>
                  {t("created")}
                </th>
                <th scope="col" className={thClass}>
                  <span className="sr-only">{t("links")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((o) => (
                <tr key={o.id}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    <Link
                      href={`/admin/tenants/${encodeURIComponent(o.slug)}`}
                      className="text-orange-700 underline dark:text-orange-400"
                    >
                      {o.name}
                    </Link>
                    <div className="text-xs font-normal text-slate-600 dark:text-slate-400">{o.slug}</div>
                  </th>
                  <td className={tdClass}>{format.number(o.memberCount)}</td>
                  <td className={`${tdClass} break-all`}>{o.ownerEmails.join(", ") || "—"}</td>
                  <td className={tdClass}>
                    {o.allowedJurisdictions.length ? o.allowedJurisdictions.join(", ") : t("anyJurisdiction")}
                  </td>
                  <td className={tdClass}>
                    <time dateTime={o.createdAt.toISOString()}>
                      {format.dateTime(o.createdAt, { dateStyle: "medium" })}
                    </time>
                  </td>
                  <td className={tdClass}>
                    <Link
                      href={`/admin/audit?org=${encodeURIComponent(o.slug)}`}
                      className="text-orange-700 underline dark:text-orange-400"
                    >
                      {t("auditLink", { name: o.name })}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        path="/admin/tenants"
        params={{ q }}
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
      />
    </>
  );
}
