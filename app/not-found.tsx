import { getTranslations } from "next-intl/server";

/**
 * A plain link home, not next/link: Turbopack gives the root not-found its own chunk, so a next/link here was a
 * second copy (3.2 kB gzip) of the one the layouts already load, fetched with every 404. Leaving a 404 by a
 * full page load costs nothing.
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
