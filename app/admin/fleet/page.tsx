import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader, tableClass, tdClass, thClass } from "@/components/admin/page-header";
import { getFleet } from "@/lib/admin";
import { getAdminContext } from "../admin-context";

export default async function FleetPage() {
  const ctx = await getAdminContext();
  const [fleet, t, format] = await Promise.all([
    getFleet(ctx),
    getTranslations("Admin.fleet"),
    getFormatter(),
  ]);
  const pct = (a: number, total: number) => (total ? format.number(a / total, { style: "percent" }) : "—");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")}>
        <Link href="/admin/fleet/nodes" className="text-sm text-orange-700 underline dark:text-orange-400">
          {t("allNodes")}
        </Link>
      </PageHeader>
      {fleet.length === 0 && <EmptyState title={t("empty")} body={t("emptyHint")} />}
      {fleet.map((j) => (
        <section key={j.jurisdiction} aria-labelledby={`j-${j.jurisdiction}`} className="mb-8">
          <h2 id={`j-${j.jurisdiction}`} className="mb-3 text-lg font-semibold">
            {t("jurisdiction", { jurisdiction: j.jurisdiction })}
          </h2>
          {j.regions.map((r) => (
            <div key={r.code} className="mb-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
              <h3 className="font-medium">
                {r.name}{" "}
                <span className="text-sm font-normal text-slate-600 dark:text-slate-400">
                  ({r.code} · {r.city}, {r.country})
                </span>
                {!r.active && <span className="ml-2 text-sm font-normal">{t("regionInactive")}</span>}
              </h3>
              <Link
                href={`/admin/fleet/nodes?region=${r.code}`}
                aria-label={`${t("regionNodes")}: ${r.name}`}
                className="text-sm text-orange-700 underline dark:text-orange-400"
              >
                {t("regionNodes")}
              </Link>
              <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
                {t("regionSummary", {
                  allocated: r.gpusAllocated,
                  total: r.gpusTotal,
                  pct: pct(r.gpusAllocated, r.gpusTotal),
                })}
              </p>
              {r.models.length === 0 ? (
                <p className="text-sm">{t("noNodes")}</p>
              ) : (
                <div className="overflow-x-auto">
                  <table className={tableClass}>
                    <caption className="sr-only">{t("caption", { region: r.name })}</caption>
                    <thead>
                      <tr>
                        <th scope="col" className={thClass}>
                          {t("model")}
                        </th>
                        <th scope="col" className={thClass}>
                          {t("nodes")}
                        </th>
                        <th scope="col" className={thClass}>
                          {t("nodeStatus")}
                        </th>
                        <th scope="col" className={thClass}>
                          {t("gpus")}
                        </th>
                        <th scope="col" className={thClass}>
                          {t("allocated")}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {r.models.map((m) => (
                        <tr key={m.gpuModelId}>
                          <th scope="row" className={`${tdClass} font-medium`}>
                            {m.gpuModelName}
                          </th>
                          <td className={tdClass}>{format.number(m.nodes)}</td>
                          <td className={tdClass}>
                            {t("statusCounts", {
                              active: m.nodesActive,
                              draining: m.nodesDraining,
                              down: m.nodesDown,
                            })}
                            {m.nodesDown > 0 && (
                              <span className="ml-1 font-medium text-red-700 dark:text-red-400">
                                {t("downWarning")}
                              </span>
                            )}
                          </td>
                          <td className={tdClass}>{format.number(m.gpusTotal)}</td>
                          <td className={tdClass}>
                            {format.number(m.gpusAllocated)} ({pct(m.gpusAllocated, m.gpusTotal)})
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </div>
          ))}
        </section>
      ))}
    </>
  );
}
