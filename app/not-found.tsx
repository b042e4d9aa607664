import { getTranslations } from "next-intl/server";

/**
 * A plain link home, not next/link: the root not-found is a segment of every page, and Turbopack gives it its
 * own chunk, so a next/link here was a second copy (3.2 kB gzip) of the one the layouts load, on every page's
 * first load (issue 13's 150 kB budget). Leaving a 404 by a full page load costs nothing.
 */
export default async function NotFound() {
  const t = await getTranslations("Common");
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("notFoundTitle")}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{t("notFoundBody")}</p>
      <a href="/" className="mt-4 inline-block text-orange-700 underline dark:text-orange-400">
        {t("goHome")}
      </a>
    </main>
  );
}
