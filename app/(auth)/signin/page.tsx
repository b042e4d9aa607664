import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { oidcConfigured, oidcDisplayName } from "@/lib/auth/next-auth";
import { SignInForm } from "./signin-form";

export const dynamic = "force-dynamic";

function safeCallback(raw: string | string[] | undefined): string {
  const v = Array.isArray(raw) ? raw[0] : raw;
  // Only same-site paths: an absolute URL here would be an open redirect.
  return v?.startsWith("/") && !v.startsWith("//") ? v : "/";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const t = await getTranslations("Auth");
  const sp = await searchParams;
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("signInTitle")}</h1>
      <SignInForm
        callbackUrl={safeCallback(sp.callbackUrl)}
        sso={oidcConfigured() ? { name: oidcDisplayName() } : null}
      />
      <p className="text-sm">
        {t("noAccount")}{" "}
        <Link href="/signup" className="text-orange-700 underline dark:text-orange-400">
          {t("signUp")}
        </Link>
      </p>
    </main>
  );
}
