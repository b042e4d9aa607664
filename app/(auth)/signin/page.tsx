import { headers } from "next/headers";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Alert } from "@/components/ui/alert";
import { requestOrigin, sameOriginPath } from "@/lib/auth";
import { oidcConfigured, oidcDisplayName } from "@/lib/auth/next-auth";
import { SignInForm } from "./signin-form";

export const dynamic = "force-dynamic";

// next-auth reports a failed sign-in with ?error=<code>; these are the single sign-on ones.
const SSO_ERRORS = new Set([
  "OAuthSignin",
  "OAuthCallback",
  "OAuthAccountNotLinked",
  "Callback",
  "AccessDenied",
]);

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const t = await getTranslations("Auth");
  const sp = await searchParams;
  const error = typeof sp.error === "string" ? sp.error : undefined;
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("signInTitle")}</h1>
      {error ? <Alert tone="box">{SSO_ERRORS.has(error) ? t("ssoFailed") : t("signInFailed")}</Alert> : null}
      <SignInForm
        callbackUrl={sameOriginPath(sp.callbackUrl, requestOrigin(await headers()))}
        sso={oidcConfigured() ? { name: oidcDisplayName() } : null}
      />
      <Link href="/reset-password" className="text-sm text-orange-700 underline dark:text-orange-400">
        {t("forgotPassword")}
      </Link>
      <p className="text-sm">
        {t("noAccount")}{" "}
        <Link href="/signup" className="text-orange-700 underline dark:text-orange-400">
          {t("signUp")}
        </Link>
      </p>
    </main>
  );
}
