import { getNow, getTranslations } from "next-intl/server";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AuditRow } from "@/lib/audit";
import { EmptyState, tableClass, tdClass, thClass } from "./page-header";

/** The audit log as a table; `showOrg` adds the organization column for the platform-wide view. */
export async function AuditTable({ rows, showOrg }: { rows: AuditRow[]; showOrg?: boolean }) {
  const now = await getNow();
  const t = await getTranslations("Audit");
  if (rows.length === 0) return <EmptyState title={t("empty")} body={t("emptyHint")} />;
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        <caption className="sr-only">{t("caption")}</caption>
        <thead>
          <tr>
            <th scope="col" className={thClass}>
              {t("time")}
            </th>
            {showOrg && (
              <th scope="col" className={thClass}>
                {t("organization")}
              </th>
            )}
            <th scope="col" className={thClass}>
              {t("actor")}
            </th>
            <th scope="col" className={thClass}>
              {t("action")}
            </th>
            <th scope="col" className={thClass}>
              {t("target")}
            </th>
            <th scope="col" className={thClass}>
              {t("data")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td className={tdClass}>
                <RelativeTime date={r.at} now={now} />
              </td>
              {showOrg && <td className={tdClass}>{r.org ? r.org.name : t("platform")}</td>}
              <td className={tdClass}>
                {r.actorEmail ?? (r.actorKind === "system" ? t("system") : t("unknownActor"))}
                {r.actorKind === "api" && (
                  <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">({t("viaApi")})</span>
                )}
              </td>
              <td className={tdClass}>
                <code className="text-xs">{r.action}</code>
              </td>
              <td className={`${tdClass} break-all`}>
                {r.targetType ? `${r.targetType}${r.targetId ? ` ${r.targetId}` : ""}` : "—"}
              </td>
              <td className={tdClass}>
                {r.data ? (
                  <pre className="max-w-md overflow-x-auto whitespace-pre-wrap break-all text-xs">
                    {JSON.stringify(r.data, null, 1)}
                  </pre>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
