import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { EmptyState, PageHeader, tableClass, tdClass, thClass } from "@/components/admin/page-header";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { listCohorts, listQuotaDefaults, listQuotaHistory, listQuotaTable, quotaChoices } from "@/lib/quotas";
import { first, getAdminContext, type SearchParams } from "../admin-context";
import {
  createCohortAction,
  removeCohortMemberAction,
  setCohortMemberAction,
  setOrgQuotaAction,
  setQuotaDefaultAction,
} from "./actions";
import { CohortForm, CohortMemberForm, DefaultQuotaForm, OrgQuotaForm } from "./quota-forms";

const h2 = "mb-3 mt-8 text-lg font-semibold";

export default async function AdminQuotasPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await getAdminContext();
  const sp = await searchParams;
  const [rows, defaults, cohorts, history, choices, t, format] = await Promise.all([
    listQuotaTable(ctx),
    listQuotaDefaults(ctx),
    listCohorts(ctx),
    listQuotaHistory(ctx),
    quotaChoices(ctx),
    getTranslations("AdminQuotas"),
    getFormatter(),
  ]);
  const editOrg = first(sp.org);
  const editModel = first(sp.model);
  const editRegion = first(sp.region);
  const editing = rows.find(
    (r) => r.orgId === editOrg && r.gpuModelId === editModel && r.regionCode === editRegion,
  );
  const initial = editing ?? { orgId: editOrg, gpuModelId: editModel, regionCode: editRegion };
  const lending = (v: number | null) => (v === null ? t("allUnused") : String(v));
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {rows.length === 0 ? (
        <EmptyState title={t("empty")} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("caption")}</caption>
            <thead>
              <tr>
                {(
                  [
                    "organization",
                    "gpuModel",
                    "region",
                    "nominal",
                    "borrowingLimit",
                    "lendingLimit",
                    "inUse",
                    "borrowed",
                    "lent",
                  ] as const
                ).map((k) => (
                  <th key={k} scope="col" className={thClass}>
                    {t(k)}
                  </th>
                ))}
                <th scope="col" className={thClass}>
                  <span className="sr-only">{t("edit")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.orgId}/${r.gpuModelId}/${r.regionCode}`}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    {r.orgName}
                    {r.cohortName && (
                      <div className="text-xs font-normal text-slate-600 dark:text-slate-400">
                        {t("inCohort", { cohort: r.cohortName })}
                      </div>
                    )}
                  </th>
                  <td className={tdClass}>{r.gpuModelId}</td>
                  <td className={tdClass}>{r.regionCode}</td>
                  <td className={tdClass}>
                    {r.nominalGpus}
                    {r.source !== "organization" && (
                      <div className="text-xs text-slate-600 dark:text-slate-400">
                        {t(`source.${r.source}`)}
                      </div>
                    )}
                  </td>
                  <td className={tdClass}>{r.borrowingLimitGpus}</td>
                  <td className={tdClass}>{lending(r.lendingLimitGpus)}</td>
                  <td className={tdClass}>{r.inUseGpus}</td>
                  <td className={tdClass}>{r.borrowedGpus}</td>
                  <td className={tdClass}>{r.lentGpus}</td>
                  <td className={tdClass}>
                    <Link
                      href={`/admin/quotas?org=${r.orgId}&model=${encodeURIComponent(r.gpuModelId)}&region=${encodeURIComponent(r.regionCode)}#org-quota-heading`}
                      className="text-orange-700 underline dark:text-orange-400"
                    >
                      {t("editRow", { org: r.orgName, model: r.gpuModelId, region: r.regionCode })}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="org-quota-heading" className={h2}>
        {t("setQuota")}
      </h2>
      <p className="mb-3 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("setQuotaHint")}</p>
      <OrgQuotaForm
        key={`${editOrg}/${editModel}/${editRegion}`}
        action={setOrgQuotaAction}
        choices={choices}
        initial={initial}
      />

      <h2 id="defaults-heading" className={h2}>
        {t("defaults")}
      </h2>
      <p className="mb-3 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("defaultsHint")}</p>
      {defaults.length > 0 && (
        <table className={`${tableClass} mb-4`}>
          <caption className="sr-only">{t("defaults")}</caption>
          <thead>
            <tr>
              {(["gpuModel", "region", "nominal", "borrowingLimit", "lendingLimit"] as const).map((k) => (
                <th key={k} scope="col" className={thClass}>
                  {t(k)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {defaults.map((d) => (
              <tr key={`${d.gpuModelId}/${d.regionCode}`}>
                <td className={tdClass}>{d.gpuModelId === "*" ? t("any") : d.gpuModelId}</td>
                <td className={tdClass}>{d.regionCode === "*" ? t("any") : d.regionCode}</td>
                <td className={tdClass}>{d.nominalGpus}</td>
                <td className={tdClass}>{d.borrowingLimitGpus}</td>
                <td className={tdClass}>{lending(d.lendingLimitGpus)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DefaultQuotaForm action={setQuotaDefaultAction} choices={choices} />

      <h2 className={h2}>{t("cohorts")}</h2>
      <p className="mb-3 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("cohortsHint")}</p>
      {cohorts.length === 0 ? (
        <EmptyState title={t("noCohorts")} />
      ) : (
        <ul className="mb-4 flex flex-col gap-2">
          {cohorts.map((c) => (
            <li key={c.id} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
              <p className="font-medium">{c.name}</p>
              {c.description && <p className="text-sm text-slate-600 dark:text-slate-400">{c.description}</p>}
              {c.members.length === 0 ? (
                <p className="text-sm">{t("noMembers")}</p>
              ) : (
                <ul aria-label={t("membersOf", { cohort: c.name })} className="flex flex-col gap-1 text-sm">
                  {c.members.map((m) => (
                    <li key={m.orgId} className="flex flex-wrap items-center gap-2">
                      {t("memberWeight", { org: m.orgName, weight: m.weight })}
                      <ConfirmAction
                        trigger={t("removeMember")}
                        triggerLabel={t("removeMemberLabel", { org: m.orgName, cohort: c.name })}
                        title={t("removeMemberTitle", { org: m.orgName, cohort: c.name })}
                        description={t("removeMemberBody")}
                        confirmLabel={t("removeMember")}
                        action={removeCohortMemberAction}
                        fields={{ orgId: m.orgId }}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-4">
        <CohortForm action={createCohortAction} />
        {cohorts.length > 0 && (
          <CohortMemberForm
            action={setCohortMemberAction}
            choices={choices}
            cohorts={cohorts.map((c) => ({ id: c.id, name: c.name }))}
          />
        )}
      </div>

      <h2 className={h2}>{t("history")}</h2>
      {history.length === 0 ? (
        <EmptyState title={t("noHistory")} />
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{t("history")}</caption>
            <thead>
              <tr>
                {(["when", "actor", "action", "organization", "target", "details"] as const).map((k) => (
                  <th key={k} scope="col" className={thClass}>
                    {t(k)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.id}>
                  <td className={tdClass}>
                    {format.dateTime(h.at, { dateStyle: "medium", timeStyle: "short" })}
                  </td>
                  <td className={tdClass}>{h.actorEmail ?? t("system")}</td>
                  <td className={tdClass}>
                    <code>{h.action}</code>
                  </td>
                  <td className={tdClass}>{h.orgName ?? "—"}</td>
                  {/* Ids and JSON break anywhere, so the history fits instead of scrolling sideways. */}
                  <td className={`${tdClass} break-all`}>{h.targetId ?? "—"}</td>
                  <td className={`${tdClass} max-w-md break-all font-mono text-xs`}>
                    {h.data ? JSON.stringify(h.data) : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
