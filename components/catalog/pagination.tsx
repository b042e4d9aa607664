import Link from "next/link";
import { useTranslations } from "next-intl";
import type { CatalogFilters } from "@/lib/catalog/schemas";
import { catalogHref } from "./links";

type Props = { orgSlug: string; filters: CatalogFilters; page: number; pageCount: number };

/** Page numbers shown: first, last, and two either side of the current one; null marks a gap. */
function pageWindow(page: number, count: number): Array<number | null> {
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

const itemClass = "rounded-md border px-3 py-1.5 text-sm";

export function Pagination({ orgSlug, filters, page, pageCount }: Props) {
  const t = useTranslations("Catalog");
  if (pageCount <= 1) return null;
  const href = (p: number) => catalogHref(orgSlug, filters, { page: p });
  return (
    <nav aria-label={t("pagination")} className="flex flex-wrap items-center gap-2">
      {page > 1 ? (
        <Link
          href={href(page - 1)}
          rel="prev"
          className={`${itemClass} border-slate-300 dark:border-slate-700`}
        >
          {t("previous")}
        </Link>
      ) : null}
      <ul className="flex flex-wrap items-center gap-1">
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                href={href(p)}
                aria-label={t("pageN", { page: p })}
                aria-current={p === page ? "page" : undefined}
                className={`${itemClass} block ${
                  p === page
                    ? "border-orange-700 bg-orange-700 font-semibold text-white"
                    : "border-slate-300 dark:border-slate-700"
                }`}
              >
                {p}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pageCount ? (
        <Link
          href={href(page + 1)}
          rel="next"
          className={`${itemClass} border-slate-300 dark:border-slate-700`}
        >
          {t("next")}
        </Link>
      ) : null}
      <p className="text-sm text-slate-600 dark:text-slate-400">{t("pageOf", { page, count: pageCount })}</p>
    </nav>
  );
}
