import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function NotFound() {
  const t = await getTranslations("Common");
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("notFoundTitle")}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{t("notFoundBody")}</p>
      <Link href="/" className="mt-4 inline-block text-orange-700 underline dark:text-orange-400">
        {t("goHome")}
      </Link>
    </main>
  );
}
