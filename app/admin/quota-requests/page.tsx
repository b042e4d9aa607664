import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, HeaderRow, PageHeader, tableClass, tdClass } from "@/components/admin/page-header";
import { listQuotaRequests } from "@/lib/quotas";
import { getAdminContext } from "../admin-context";
import { decideQuotaRequestAction } from "./actions";
import { DecisionForm, DecisionQueue } from "./decision-form";

export default async function AdminQuotaRequestsPage() {
  const ctx = await getAdminContext();
  const [rows, t, format] = await Promise.all([
    listQuotaRequests(ctx),
    getTranslations("AdminQuotaRequests"),
    getFormatter(),
  ]);
  const open = rows.filter((r) => r.status === "open");
  const decided = rows.filter((r) => r.status !== "open");
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <h2 className="mb-3 text-lg font-semibold">{t("open")}</h2>
      <DecisionQueue action={decideQuotaRequestAction}>
        {open.length === 0 ? (
          <EmptyState title={t("noOpen")} />
        ) : (
          <ul className="flex flex-col gap-4">
            {open.map((r) => (
              <li key={r.id} className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
                <h3 className="font-medium">
                  {t("asks", {
                    org: r.orgName,
                    requested: r.requestedGpus,
                    model: r.gpuModelId,
                    region: r.regionCode,
                  })}
                </h3>
                <dl className="my-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm md:grid-cols-4">
                  <dt className="text-slate-600 dark:text-slate-400">{t("nominalNow")}</dt>
                  <dd>{r.nominalGpus}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">{t("inUse")}</dt>
                  <dd>{r.inUseGpus}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">{t("spend")}</dt>
                  <dd>{format.number(r.monthSpendUsd, { style: "currency", currency: "USD" })}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">{t("past")}</dt>
                  <dd>{r.pastRequests}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">{t("until")}</dt>
                  <dd>{r.until ? when(r.until) : t("permanent")}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">{t("requester")}</dt>
                  <dd>{r.requesterEmail ?? "—"}</dd>
                </dl>
                <p className="mb-3 text-sm">
                  <span className="font-medium">{t("reason")}</span> {r.reason}
                </p>
                <DecisionForm
                  requestId={r.id}
                  requestedGpus={r.requestedGpus}
                  label={t("decideFor", { org: r.orgName, model: r.gpuModelId, region: r.regionCode })}
                />
              </li>
            ))}
          </ul>
        )}
      </DecisionQueue>
      <h2 className="mb-3 mt-8 text-lg font-semibold">{t("decidedTitle")}</h2>
      {decided.length === 0 ? (
        <EmptyState title={t("noDecided")} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("decidedTitle")}</caption>
            <HeaderRow
              labels={(["organization", "what", "status", "granted", "message", "decidedAt"] as const).map(
                (k) => t(`col.${k}`),
              )}
            />
            <tbody>
              {decided.map((r) => (
                <tr key={r.id}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    {r.orgName}
                  </th>
                  <td className={tdClass}>
                    {t("what", { requested: r.requestedGpus, model: r.gpuModelId, region: r.regionCode })}
                  </td>
                  <td className={tdClass}>{t(`status.${r.status}`)}</td>
                  <td className={tdClass}>{r.grantedGpus ?? "—"}</td>
                  <td className={tdClass}>{r.decisionMessage ?? "—"}</td>
                  <td className={tdClass}>{r.decidedAt ? when(r.decidedAt) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
