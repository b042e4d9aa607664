import Link from "next/link";
import { useTranslations } from "next-intl";

/** The instance list's empty state: what to do next, with or without filters, as the role allows. */
export function InstancesEmpty({
  org,
  filtered,
  canAct,
}: {
  org: string;
  filtered: boolean;
  canAct: boolean;
}) {
  const t = useTranslations("Instances");
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <h2 className="text-lg font-semibold">{filtered ? t("empty.filteredTitle") : t("empty.title")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {filtered ? t("empty.filteredBody") : t("empty.body")}
      </p>
      <div className="mt-4 flex justify-center gap-3 text-sm">
        {filtered ? (
          <Link href={`/${org}/instances`} className="text-orange-700 underline dark:text-orange-400">
            {t("filters.clear")}
          </Link>
        ) : (
          <Link href={`/${org}/catalog`} className="text-orange-700 underline dark:text-orange-400">
            {t("empty.browseCatalog")}
          </Link>
        )}
        {canAct ? (
          <Link href={`/${org}/instances/new`} className="text-orange-700 underline dark:text-orange-400">
            {t("newInstance")}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
