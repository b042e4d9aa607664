import { getFormatter, getTranslations } from "next-intl/server";
import { getQuotaPolicy, listOrgQuotaRequests, listOrgQuotas } from "@/lib/quotas";
import { listProjects } from "@/lib/tenancy";
import { getOrgPageContext } from "../org-context";
import { requestQuotaAction, setProjectShareAction, setQuotaPolicyAction } from "./actions";
import { ProjectShareForm, QuotaPolicyForm, QuotaRequestForm } from "./quota-forms";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const th = "border-b border-slate-200 px-3 py-2 font-semibold dark:border-slate-700";
const td = "border-b border-slate-100 px-3 py-2 align-top dark:border-slate-800";
const ROLE_RANK = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;

export default async function OrgQuotasPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: SearchParams;
}) {
  const { org: slug } = await params;
  const sp = await searchParams;
  const { ctx, role } = await getOrgPageContext(slug);
  const [rows, requests, projects, policy, t, format] = await Promise.all([
    listOrgQuotas(ctx, slug),
    listOrgQuotaRequests(ctx, slug),
    listProjects(ctx, slug),
    getQuotaPolicy(ctx, slug),
    getTranslations("OrgQuotas"),
    getFormatter(),
  ]);
  const models = [...new Map(rows.map((r) => [r.gpuModelId, r.gpuModelName]))].map(([value, label]) => ({
    value,
    label,
  }));
  const modelName = new Map(rows.map((r) => [r.gpuModelId, r.gpuModelName]));
  const regions = [...new Set(rows.map((r) => r.regionCode))].map((c) => ({ value: c, label: c }));
  const canRequest = ROLE_RANK[role] >= ROLE_RANK.member;
  const isAdmin = ROLE_RANK[role] >= ROLE_RANK.admin;
  const open = requests.filter((r) => r.status === "open");
  const past = requests.filter((r) => r.status !== "open");
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium" });
  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("description")}</p>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{t("caption")}</caption>
          <thead>
            <tr>
              {(
                ["gpuModel", "region", "nominal", "inUse", "borrowed", "availableToBorrow", "shares"] as const
              ).map((k) => (
                <th key={k} scope="col" className={th}>
                  {t(k)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.gpuModelId}/${r.regionCode}`}>
                <th scope="row" className={`${td} font-medium`}>
                  {r.gpuModelName}
                </th>
                <td className={td}>{r.regionCode}</td>
                <td className={td}>{r.nominalGpus}</td>
                <td className={td}>{r.inUseGpus}</td>
                <td className={td}>{r.borrowedGpus}</td>
                <td className={td}>{r.inCohort ? r.availableToBorrowGpus : t("noCohort")}</td>
                <td className={td}>
                  {r.shares.length === 0
                    ? "—"
                    : r.shares
                        .map((s) => t("share", { project: s.projectName, gpus: s.shareGpus }))
                        .join(", ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <section aria-labelledby="policy-heading">
        <h2 id="policy-heading" className="mb-2 text-lg font-semibold">
          {t("policyTitle")}
        </h2>
        {isAdmin ? (
          <QuotaPolicyForm
            action={setQuotaPolicyAction}
            orgSlug={slug}
            preemptLowerPriority={policy.preemptLowerPriority}
          />
        ) : (
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-400">
            {policy.preemptLowerPriority ? t("policyOn") : t("policyOff")}
          </p>
        )}
      </section>

      {isAdmin && (
        <section aria-labelledby="shares-heading">
          <h2 id="shares-heading" className="mb-2 text-lg font-semibold">
            {t("sharesTitle")}
          </h2>
          <p className="mb-3 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("sharesHint")}</p>
          <ProjectShareForm
            action={setProjectShareAction}
            orgSlug={slug}
            projects={projects.map((p) => ({ value: p.slug, label: p.name }))}
            models={models}
            regions={regions}
          />
        </section>
      )}

      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading" className="mb-2 text-lg font-semibold">
          {t("requestsTitle")}
        </h2>
        {requests.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("noRequests")}</p>
        ) : (
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">{t("requestsTitle")}</caption>
            <thead>
              <tr>
                {(["asked", "status", "granted", "message", "created"] as const).map((k) => (
                  <th key={k} scope="col" className={th}>
                    {t(`col.${k}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...open, ...past].map((r) => (
                <tr key={r.id}>
                  <td className={td}>
                    {t("asked", {
                      requested: r.requestedGpus,
                      model: modelName.get(r.gpuModelId) ?? r.gpuModelId,
                      region: r.regionCode,
                    })}
                  </td>
                  <td className={td}>{t(`status.${r.status}`)}</td>
                  <td className={td}>{r.grantedGpus ?? "—"}</td>
                  <td className={td}>{r.decisionMessage ?? "—"}</td>
                  <td className={td}>{when(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {canRequest && (
        <section aria-labelledby="request-heading">
          <h2 id="request-heading" className="mb-2 text-lg font-semibold">
            {t("requestTitle")}
          </h2>
          <p className="mb-3 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{t("requestHint")}</p>
          <QuotaRequestForm
            action={requestQuotaAction}
            orgSlug={slug}
            models={models}
            regions={regions}
            initial={{
              gpuModelId: models.find((m) => m.value === first(sp.model) || m.label === first(sp.model))
                ?.value,
              regionCode: first(sp.region),
              requestedGpus: first(sp.gpus),
            }}
          />
        </section>
      )}
    </div>
  );
}
