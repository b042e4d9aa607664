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
  const org = first(sp.org)?.trim() || undefined;
  const action = first(sp.action)?.trim() || undefined;
  const [log, t] = await Promise.all([
    listPlatformAuditLog(ctx, { org, action, page: first(sp.page) }),
    getTranslations("Admin.audit"),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <AuditFilters path="/admin/audit" actions={log.actions} current={{ org, action }} withOrg />
      <AuditTable rows={log.rows} showOrg />
      <Pagination
        path="/admin/audit"
        params={{ org, action }}
        page={log.page}
        pageCount={log.pageCount}
        total={log.total}
      />
    </>
  );
}
