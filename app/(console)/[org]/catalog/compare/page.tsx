import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { CompareTable } from "@/components/catalog/compare-table";
import { compareKeyOf, compareOfferings, MAX_COMPARE, parseCompareKeys } from "@/lib/catalog";
import { expectedWaits } from "@/lib/telemetry";
import { getOrgPageContext } from "../../org-context";

type Props = {
  params: Promise<{ org: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const notice =
  "rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200";

/** Up to four offerings side by side, named in the URL (`?o=<type>@<region>`), so a comparison can be shared. */
export default async function ComparePage({ params, searchParams }: Props) {
  const { org: slug } = await params;
  const { ctx } = await getOrgPageContext(slug);
  const { keys, dropped } = parseCompareKeys(await searchParams);
  const [{ items, missing }, waits] = await Promise.all([
    compareOfferings(ctx, slug, keys),
    expectedWaits(ctx),
  ]);
  const t = await getTranslations("Catalog");
  const waitBy = Object.fromEntries(
    waits.map((w) => [`${w.regionCode}/${w.gpuModelId}`, { p50Seconds: w.p50Seconds, samples: w.waits }]),
  );
  const removeHref = (gone: { instanceTypeId: string; regionCode: string }) => {
    const qs = new URLSearchParams(
      items.filter((o) => compareKeyOf(o) !== compareKeyOf(gone)).map((o) => ["o", compareKeyOf(o)]),
    ).toString();
    return `/${slug}/catalog/compare${qs ? `?${qs}` : ""}`;
  };
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <Link
          href={`/${slug}/catalog`}
          className="w-fit text-sm underline focus-visible:outline-2 focus-visible:outline-orange-600"
        >
          {t("backToCatalog")}
        </Link>
        <h1 className="text-2xl font-semibold">{t("compareTitle")}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("compareIntro", { max: MAX_COMPARE })}
        </p>
      </header>
      {dropped ? (
        <p role="status" className={notice}>
          {t("compareDropped", { count: dropped, max: MAX_COMPARE })}
        </p>
      ) : null}
      {missing.length ? (
        <p role="status" className={notice}>
          {t("compareMissing", { offerings: missing.map(compareKeyOf).join(", ") })}
        </p>
      ) : null}
      {items.length < 2 ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {t("compareTooFew")}
        </p>
      ) : null}
      {items.length ? (
        <CompareTable orgSlug={slug} items={items} waits={waitBy} removeHref={removeHref} />
      ) : null}
    </div>
  );
}
