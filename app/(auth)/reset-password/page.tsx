import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requestResetAction } from "../account-actions";
import { RequestResetForm } from "../account-forms";

export default async function RequestResetPage() {
  const t = await getTranslations("Account");
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("resetRequestTitle")}</h1>
      <p>{t("resetRequestBody")}</p>
      <RequestResetForm action={requestResetAction} />
      <Link href="/signin" className="text-sm text-orange-700 underline dark:text-orange-400">
        {t("backToSignIn")}
      </Link>
    </main>
  );
}
