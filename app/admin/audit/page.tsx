import { getTranslations } from "next-intl/server";
import { AuditFilters } from "@/components/admin/audit-filters";
import { AuditTable } from "@/components/admin/audit-table";
import { PageHeader } from "@/components/admin/page-header";
import { Pagination } from "@/components/ui/pagination";
import { listPlatformAuditLog } from "@/lib/admin";
import { first, getAdminContext, type SearchParams } from "../admin-context";

export default async function AdminAuditPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const pick = (k: string) => first(sp[k])?.trim() || undefined;
  const filters = {
    org: pick("org"),
    actor: pick("actor"),
    action: pick("action"),
    from: pick("from"),
    to: pick("to"),
  };
  const [log, t] = await Promise.all([
    listPlatformAuditLog(ctx, { ...filters, page: first(sp.page) }),
    getTranslations("Admin.audit"),
  ]);
  const query = new URLSearchParams(
    Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])),
  ).toString();
  return (
    <>
      <PageHeader title={t("title")} description={t("description")}>
        <a
          href={`/api/v1/admin/audit/export${query ? `?${query}` : ""}`}
          download
          className="text-sm text-orange-700 underline dark:text-orange-400"
        >
          {t("exportCsv")}
        </a>
      </PageHeader>
      <AuditFilters path="/admin/audit" actions={log.actions} current={filters} withOrg />
      <AuditTable rows={log.rows} showOrg />
      <Pagination
        path="/admin/audit"
        params={filters}
        page={log.page}
        pageCount={log.pageCount}
        total={log.total}
      />
    </>
  );
}
