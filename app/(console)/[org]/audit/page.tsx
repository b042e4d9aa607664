import { getTranslations } from "next-intl/server";
import { AuditFilters } from "@/components/admin/audit-filters";
import { AuditTable } from "@/components/admin/audit-table";
import { PageHeader } from "@/components/admin/page-header";
import { Pagination } from "@/components/ui/pagination";
import { listAuditLog } from "@/lib/audit";
import { ForbiddenError } from "@/lib/core";
import { getOrgPageContext } from "../org-context";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ org: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The organization's audit log, for its admins and owners. */
export default async function OrgAuditPage({ params, searchParams }: Props) {
  const { org: slug } = await params;
  const sp = await searchParams;
  const { ctx, org } = await getOrgPageContext(slug);
  const t = await getTranslations("Audit");
  const action = first(sp.action)?.trim() || undefined;
  const path = `/${org.slug}/audit`;
  const log = await listAuditLog(ctx, org.slug, { action, page: first(sp.page) }).catch((err: unknown) => {
    // A member or viewer may follow a link here: say who can see it rather than showing an error page.
    if (err instanceof ForbiddenError) return null;
    throw err;
  });
  if (!log) {
    return (
      <>
        <PageHeader title={t("title")} />
        <p role="status" className="rounded-md border border-slate-200 p-4 text-sm dark:border-slate-800">
          {t("adminsOnly")}
        </p>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("title")} description={t("description", { org: org.name })} />
      <AuditFilters path={path} actions={log.actions} current={{ action }} />
      <AuditTable rows={log.rows} />
      <Pagination
        path={path}
        params={{ action }}
        page={log.page}
        pageCount={log.pageCount}
        total={log.total}
      />
    </>
  );
}
