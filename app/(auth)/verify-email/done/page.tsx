import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function VerifiedPage() {
  const t = await getTranslations("Account");
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("verifiedTitle")}</h1>
      <Link href="/" className="text-orange-700 underline dark:text-orange-400">
        {t("continue")}
      </Link>
    </main>
  );
}
