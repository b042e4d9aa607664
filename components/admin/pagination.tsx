import Link from "next/link";
import { getTranslations } from "next-intl/server";

type Props = {
  /** The list's path, e.g. "/admin/tenants". */
  path: string;
  /** The current filters; kept in the page links so paging never drops them. */
  params: Record<string, string | undefined>;
  page: number;
  pageCount: number;
  total: number;
};

function href(path: string, params: Props["params"], page: number): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) sp.set(k, v);
  if (page > 1) sp.set("page", String(page));
  const qs = sp.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function Pagination({ path, params, page, pageCount, total }: Props) {
  const t = await getTranslations("Admin.pagination");
  const link =
    "rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800";
  return (
    <nav aria-label={t("label")} className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <span>{t("summary", { page: Math.min(page, pageCount), pageCount, total })}</span>
      {page > 1 && (
        <Link className={link} href={href(path, params, Math.min(page - 1, pageCount))} rel="prev">
          {t("previous")}
        </Link>
      )}
      {page < pageCount && (
        <Link className={link} href={href(path, params, page + 1)} rel="next">
          {t("next")}
        </Link>
      )}
    </nav>
  );
}
