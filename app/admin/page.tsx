import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/admin/page-header";
import { getPlatformOverview } from "@/lib/admin";
import { getAdminContext } from "./admin-context";

export default async function AdminOverviewPage() {
  const ctx = await getAdminContext();
  const [o, t, format] = await Promise.all([
    getPlatformOverview(ctx),
    getTranslations("Admin.overview"),
    getFormatter(),
  ]);
  const n = (v: number) => format.number(v);
  const stats = [
    { label: t("organizations"), value: n(o.organizations), href: "/admin/tenants" },
    { label: t("users"), value: n(o.users) },
    { label: t("regions"), value: n(o.regions), href: "/admin/fleet" },
    { label: t("nodes"), value: n(o.nodes), href: "/admin/fleet" },
    {
      label: t("gpus"),
      value: t("gpusValue", { allocated: o.gpusAllocated, total: o.gpusTotal }),
      href: "/admin/fleet",
    },
    { label: t("outboxPending"), value: n(o.outboxPending), href: "/admin/outbox?status=pending" },
    {
      label: t("outboxFailed"),
      value: n(o.outboxFailed),
      href: "/admin/outbox?status=failed",
      alert: o.outboxFailed > 0,
    },
  ];
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {stats.map((s) => (
          <div
            key={s.label}
            className={`rounded-lg border p-4 ${s.alert ? "border-red-300 dark:border-red-800" : "border-slate-200 dark:border-slate-800"}`}
          >
            <dt className="text-sm text-slate-600 dark:text-slate-400">
              {s.href ? (
                <Link href={s.href} className="underline-offset-2 hover:underline">
                  {s.label}
                </Link>
              ) : (
                s.label
              )}
            </dt>
            <dd className="mt-1 text-2xl font-semibold">
              {s.value}
              {s.alert && (
                <span className="ml-2 text-sm font-medium text-red-700 dark:text-red-400">
                  {t("needsAttention")}
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
