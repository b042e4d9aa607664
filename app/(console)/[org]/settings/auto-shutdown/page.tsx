import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { PolicyForm, type PolicyFormValues } from "@/components/costs/policy-form";
import { PolicyTable } from "@/components/costs/policy-table";
import { roleAtLeast } from "@/lib/access";
import { BUILT_IN_POLICY, listAutoShutdownPolicies, NOTEBOOK_IDLE_MINUTES } from "@/lib/autoshutdown";
import { listGpuModels } from "@/lib/catalog";
import { listProjects } from "@/lib/tenancy";
import { getOrgPageContext } from "../../org-context";
import { deletePolicyAction, savePolicyAction } from "./actions";

type Search = Record<string, string | string[] | undefined>;
const text = (n: number | null) => (n === null ? "" : String(n));

export default async function AutoShutdownSettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<Search>;
}) {
  const { org: slug } = await params;
  const editId = (await searchParams).edit;
  const { ctx, role } = await getOrgPageContext(slug);
  const [t, rows, projects, models] = await Promise.all([
    getTranslations("Costs.autoShutdown"),
    listAutoShutdownPolicies(ctx, slug),
    listProjects(ctx, slug),
    listGpuModels(ctx),
  ]);
  const canEdit = roleAtLeast(role, "admin");
  const editing = rows.find((r) => r.policy.id === editId)?.policy;
  const p = editing ?? { ...BUILT_IN_POLICY };
  const initial: PolicyFormValues = {
    project: editing?.projectId ?? "",
    gpuModelId: editing?.gpuModelId ?? "",
    defaultIdlePct: text(p.defaultIdlePct),
    defaultIdleMinutes: text(p.defaultIdleMinutes),
    idleRequired: p.idleRequired,
    idleMinutesMax: text(p.idleMinutesMax),
    idlePctMin: text(p.idlePctMin),
    defaultMaxRuntimeMinutes: text(p.defaultMaxRuntimeMinutes),
    maxRuntimeMinutesMax: text(p.maxRuntimeMinutesMax),
    allowSnooze: p.allowSnooze,
    snoozeMinutesMax: text(p.snoozeMinutesMax),
    maxSnoozes: text(p.maxSnoozes),
    warningMinutes: text(p.warningMinutes),
  };
  return (
    <div className="flex flex-col gap-6">
      {canEdit ? null : (
        <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          {t("readOnly")}
        </p>
      )}
      <section aria-labelledby="policies-heading" className="flex flex-col gap-3">
        <h2 id="policies-heading" className="text-lg font-semibold">
          {t("heading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("intro", { minutes: NOTEBOOK_IDLE_MINUTES, pct: BUILT_IN_POLICY.defaultIdlePct })}
        </p>
        {rows.length === 0 ? (
          <p className="text-sm">{canEdit ? t("emptyAdmin") : t("empty")}</p>
        ) : (
          <PolicyTable
            org={slug}
            rows={rows}
            canEdit={canEdit}
            deleteAction={(id) => deletePolicyAction.bind(null, slug, id)}
          />
        )}
      </section>
      {canEdit ? (
        <section aria-labelledby="policy-form-heading" className="flex flex-col gap-3">
          <h2 id="policy-form-heading" className="text-lg font-semibold">
            {editing ? t("editHeading") : t("newHeading")}
          </h2>
          {editing ? (
            <Link
              href={`/${slug}/settings/auto-shutdown`}
              className="text-sm text-orange-800 underline dark:text-orange-300"
            >
              {t("newInstead")}
            </Link>
          ) : null}
          <PolicyForm
            key={editing?.id ?? "new"}
            action={savePolicyAction.bind(null, slug)}
            initial={initial}
            projects={projects.map((x) => ({ id: x.id, name: x.name }))}
            gpuModels={models.map((m) => ({ id: m.id, name: m.name }))}
          />
        </section>
      ) : null}
    </div>
  );
}
