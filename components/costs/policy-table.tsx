import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { FormAction } from "@/components/ui/use-action-form";
import type { AutoShutdownPolicy } from "@/lib/autoshutdown";
import { DeletePolicy } from "./delete-policy";

type Row = { policy: AutoShutdownPolicy; projectName: string | null; gpuModelName: string | null };

/** Each scope's policy: the defaults a launch gets and the limits members cannot exceed. */
export async function PolicyTable({
  org,
  rows,
  canEdit,
  deleteAction,
}: {
  org: string;
  rows: Row[];
  canEdit: boolean;
  deleteAction: (id: string) => FormAction<unknown>;
}) {
  const t = await getTranslations("Costs.autoShutdown");
  const min = (n: number | null) => (n === null ? t("none") : t("minutes", { n }));
  const pct = (n: number | null) => (n === null ? t("none") : `${n} %`);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("tableCaption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("scope")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("defaults")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("limits")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("snooze")}
            </th>
            {canEdit ? (
              <th scope="col" className="py-2 font-medium">
                {t("actions")}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ policy: p, projectName, gpuModelName }) => {
            const scope = t("scopeValue", {
              project: projectName ?? t("allProjects"),
              gpu: gpuModelName ?? t("allGpus"),
            });
            return (
              <tr key={p.id} className="border-b border-slate-100 align-top dark:border-slate-800">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {scope}
                </th>
                <td className="py-2 pr-3">
                  <ul>
                    <li>
                      {t("idleDefault", { pct: pct(p.defaultIdlePct), minutes: min(p.defaultIdleMinutes) })}
                    </li>
                    <li>{t("maxRuntimeDefault", { minutes: min(p.defaultMaxRuntimeMinutes) })}</li>
                  </ul>
                </td>
                <td className="py-2 pr-3">
                  <ul>
                    <li>{p.idleRequired ? t("idleRequiredYes") : t("idleRequiredNo")}</li>
                    <li>{t("idleMaxValue", { minutes: min(p.idleMinutesMax) })}</li>
                    <li>{t("idlePctMinValue", { pct: pct(p.idlePctMin) })}</li>
                    <li>{t("maxRuntimeMaxValue", { minutes: min(p.maxRuntimeMinutesMax) })}</li>
                  </ul>
                </td>
                <td className="py-2 pr-3">
                  <ul>
                    <li>
                      {p.allowSnooze
                        ? t("snoozeValue", { minutes: p.snoozeMinutesMax, count: p.maxSnoozes })
                        : t("snoozeOff")}
                    </li>
                    <li>{t("warningValue", { minutes: p.warningMinutes })}</li>
                  </ul>
                </td>
                {canEdit ? (
                  <td className="py-2">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link
                        href={`/${org}/settings/auto-shutdown?edit=${p.id}`}
                        aria-label={t("editScope", { scope })}
                        className="text-orange-800 underline dark:text-orange-300"
                      >
                        {t("edit")}
                      </Link>
                      <DeletePolicy scope={scope} action={deleteAction(p.id)} />
                    </div>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
