import { getTranslations } from "next-intl/server";
import { StreamFallback } from "@/components/shell/stream-fallback";

/** Shown while the catalog page (offerings with live availability) is being prepared. */
export default async function CatalogLoading() {
  const t = await getTranslations("Catalog");
  return (
    <StreamFallback className="flex flex-col gap-6" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p role="status" aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300">
        {t("loadingResults")}
      </p>
      <ul aria-hidden="true" className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <li
            key={i}
            className="h-64 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none dark:bg-slate-800"
          />
        ))}
      </ul>
    </StreamFallback>
  );
}
