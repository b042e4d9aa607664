import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { UserMenu } from "@/components/shell/user-menu";
import { listMyOrganizations } from "@/lib/access";
import { getAdminContext } from "./admin-context";

export const dynamic = "force-dynamic";

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const ctx = await getAdminContext();
  const t = await getTranslations("Admin");
  const tCharts = await getTranslations("Charts");
  const tPrices = await getTranslations("Prices");
  const orgs = await listMyOrganizations(ctx);
  const items = [
    { href: "/admin", label: t("nav.overview") },
    { href: "/admin/tenants", label: t("nav.tenants") },
    { href: "/admin/fleet", label: t("nav.fleet") },
    { href: "/admin/quotas", label: t("nav.quotas") },
    { href: "/admin/quota-requests", label: t("nav.quotaRequests") },
    { href: "/admin/prices", label: tPrices("navLabel") },
    { href: "/admin/capacity", label: tCharts("capacity.navLabel") },
    { href: "/admin/outbox", label: t("nav.outbox") },
    { href: "/admin/audit", label: t("nav.audit") },
  ];
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex flex-wrap items-center gap-4 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <Link href="/admin" className="text-lg font-bold text-orange-700 dark:text-orange-400">
          Forja
        </Link>
        <span className="rounded bg-slate-800 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-white dark:bg-slate-200 dark:text-slate-900">
          {t("badge")}
        </span>
        {orgs[0] && (
          <Link
            href={`/${orgs[0].slug}/catalog`}
            className="text-sm text-orange-700 underline dark:text-orange-400"
          >
            {t("backToConsole")}
          </Link>
        )}
        <div className="ml-auto">
          <UserMenu email={ctx.actor.email} />
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav
          aria-label={t("nav.label")}
          className="border-b border-slate-200 p-2 md:w-52 md:border-b-0 md:border-r dark:border-slate-800"
        >
          <AdminNav items={items} />
        </nav>
        <main id="main" className="min-w-0 flex-1 p-4 md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
