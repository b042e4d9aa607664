import Link from "next/link";
import { useTranslations } from "next-intl";

type Props = {
  page: number;
  pageCount: number;
  /** When given, a summary "Page 2 of 5 · 93 results" leads, shown even on a single page. */
  total?: number;
} & (
  | /** The link to a page; it keeps the list's filters (URL-kept), so paging never drops them. */
  {
      href: (page: number) => string;
      path?: never;
      params?: never;
    } /** Or the list's path and its current filters, which the page links keep. */
  | { path: string; params: Record<string, string | undefined>; href?: never }
);

/** Page numbers shown: first, last, and two either side of the current one; null marks a gap. */
export function pageWindow(page: number, count: number): Array<number | null> {
  const pages = new Set([1, count, page - 2, page - 1, page, page + 1, page + 2]);
  const sorted = [...pages].filter((p) => p >= 1 && p <= count).sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const p of sorted) {
    const prev = out[out.length - 1];
    if (typeof prev === "number" && p - prev > 1) out.push(null);
    out.push(p);
  }
  return out;
}

const itemClass = "rounded-md border px-3 py-1 text-sm";
const idleClass = "border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800";

/** The one pagination of the console: previous / numbered pages / next, as links (works without JavaScript). */
export function Pagination(props: Props) {
  const { page, pageCount, total } = props;
  const href = props.href ?? ((p: number) => pageHref(props.path ?? "", props.params ?? {}, p));
  const t = useTranslations("Common.pagination");
  if (pageCount <= 1 && total === undefined) return null;
  const current = Math.min(page, Math.max(pageCount, 1));
  return (
    <nav aria-label={t("label")} className="mt-4 flex flex-wrap items-center gap-2 text-sm">
      {total !== undefined ? (
        <span className="mr-2">
          {t("summary", { page: current, pageCount: Math.max(pageCount, 1), total })}
        </span>
      ) : null}
      {current > 1 ? (
        <Link className={`${itemClass} ${idleClass}`} href={href(current - 1)} rel="prev">
          {t("previous")}
        </Link>
      ) : null}
      {pageCount > 1 ? (
        <ul className="flex flex-wrap items-center gap-1">
          {pageWindow(current, pageCount).map((p, i) =>
            p === null ? (
              <li key={`gap-${i}`} aria-hidden="true" className="px-1">
                …
              </li>
            ) : (
              <li key={p}>
                <Link
                  href={href(p)}
                  aria-label={t("pageN", { page: p })}
                  aria-current={p === current ? "page" : undefined}
                  className={`${itemClass} block ${
                    p === current ? "border-orange-700 bg-orange-700 font-semibold text-white" : idleClass
                  }`}
                >
                  {p}
                </Link>
              </li>
            ),
          )}
        </ul>
      ) : null}
      {current < pageCount ? (
        <Link className={`${itemClass} ${idleClass}`} href={href(current + 1)} rel="next">
          {t("next")}
        </Link>
      ) : null}
      {total === undefined ? (
        <p className="text-slate-600 dark:text-slate-400">{t("pageOf", { page: current, pageCount })}</p>
      ) : null}
    </nav>
  );
}

/** A list page's link to another page, with its current filters. */
export function pageHref(path: string, params: Record<string, string | undefined>, page: number): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v && k !== "page") sp.set(k, v);
  if (page > 1) sp.set("page", String(page));
  const qs = sp.toString();
  return qs ? `${path}?${qs}` : path;
}
