import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { serviceState } from "@/components/services/service-state";
import { EmptyState } from "@/components/ui/empty-state";
import { roleAtLeast } from "@/lib/access";
import { nowOf } from "@/lib/core";
import { listServices, serviceStats } from "@/lib/services";
import { getOrgPageContext } from "../org-context";

const buttonClass =
  "rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600";

export default async function ServicesPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, role, org } = await getOrgPageContext(slug);
  const [t, services] = await Promise.all([getTranslations("Services"), listServices(ctx, slug)]);
  const now = nowOf(ctx);
  const rates = await Promise.all(
    services.map((s) => serviceStats(ctx, s.id, org.id, "1h", now).then((x) => x.requestsPerSecond)),
  );
  const canCreate = roleAtLeast(role, "member");
  const newLink = canCreate ? (
    <Link href={`/${slug}/services/new`} className={buttonClass}>
      {t("new")}
    </Link>
  ) : null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {services.length > 0 ? newLink : null}
      </div>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">{t("intro")}</p>
      {services.length === 0 ? (
        <EmptyState title={t("emptyTitle")} body={canCreate ? t("emptyBody") : t("emptyViewer")}>
          {newLink}
        </EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t("title")}</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4">
                  {t("columns.name")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("columns.state")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("columns.replicas")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("columns.rps")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("columns.offering")}
                </th>
              </tr>
            </thead>
            <tbody>
              {services.map((s, i) => (
                <tr key={s.id} className="border-b border-slate-100 dark:border-slate-800">
                  <td className="py-2 pr-4">
                    <Link
                      href={`/${slug}/services/${s.id}`}
                      className="font-medium text-orange-800 underline dark:text-orange-300"
                    >
                      {s.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-4">{t(`state.${serviceState(s)}`)}</td>
                  <td className="py-2 pr-4">{t("replicasOf", { ready: s.ready, desired: s.desired })}</td>
                  <td className="py-2 pr-4">{t("rps", { value: rates[i] ?? 0 })}</td>
                  <td className="py-2 pr-4">
                    {s.instanceType} · {s.region}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
