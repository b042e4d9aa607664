import Form from "next/form";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

type Props = {
  /** Where the form submits (the current list path). */
  path: string;
  actions: string[];
  current: { action?: string; org?: string; actor?: string; from?: string; to?: string };
  /** The platform view filters by organization, actor and days too. */
  withOrg?: boolean;
};

const control =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

/** A GET form: the filters become the URL's query, so a filtered view can be shared and the back button works. */
export async function AuditFilters({ path, actions, current, withOrg }: Props) {
  const t = await getTranslations("Audit");
  return (
    <Form action={path} className="mb-4 flex flex-wrap items-end gap-3" aria-label={t("filters")}>
      {withOrg && (
        <>
          <label className="flex flex-col gap-1 text-sm">
            <span>{t("organizationSlug")}</span>
            <input name="org" defaultValue={current.org ?? ""} placeholder="acme-ai" className={control} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>{t("actorFilter")}</span>
            <input
              name="actor"
              defaultValue={current.actor ?? ""}
              placeholder="ana@example.com"
              className={control}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>{t("from")}</span>
            <input type="date" name="from" defaultValue={current.from ?? ""} className={control} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>{t("to")}</span>
            <input type="date" name="to" defaultValue={current.to ?? ""} className={control} />
          </label>
        </>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span>{t("action")}</span>
        <select name="action" defaultValue={current.action ?? ""} className={control}>
          <option value="">{t("allActions")}</option>
          {current.action && !actions.includes(current.action) && (
            <option value={current.action}>{current.action}</option>
          )}
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className="rounded-md bg-orange-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
      >
        {t("apply")}
      </button>
      {Object.values(current).some(Boolean) && (
        <Link href={path} className="py-1.5 text-sm text-orange-700 underline dark:text-orange-400">
          {t("clear")}
        </Link>
      )}
    </Form>
  );
}
