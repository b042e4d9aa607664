import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { SignUpForm } from "./signup-form";

export default async function SignUpPage() {
  const t = await getTranslations("Auth");
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("signUpTitle")}</h1>
      <SignUpForm />
      <p className="text-sm">
        {t("haveAccount")}{" "}
        <Link href="/signin" className="text-orange-700 underline dark:text-orange-400">
          {t("signIn")}
        </Link>
      </p>
    </main>
  );
}
