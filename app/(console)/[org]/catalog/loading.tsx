import { getTranslations } from "next-intl/server";

// Without JavaScript the streamed page would stay hidden behind this fallback forever (vercel/next.js#50150):
// when scripting is off, reveal the streamed segments and hide the fallback, so the GET form still works.
// Inside Tailwind's base layer: its `[hidden]{display:none!important}` there would beat any unlayered rule.
const NO_JS_REVEAL =
  '@media (scripting: none){@layer base{[hidden][id^="S:"]{display:block!important}}.catalog-loading{display:none!important}}';

/** Shown while the catalog page (offerings with live availability) is being prepared. */
export default async function CatalogLoading() {
  const t = await getTranslations("Catalog");
  return (
    <div className="catalog-loading flex flex-col gap-6" aria-busy="true">
      <style>{NO_JS_REVEAL}</style>
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
    </div>
  );
}
