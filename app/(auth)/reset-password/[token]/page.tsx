import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { emailTokenIsLive } from "@/lib/auth";
import { resetPasswordAction } from "../../account-actions";
import { ResetPasswordForm } from "../../account-forms";

export const dynamic = "force-dynamic";

/** The page the reset email links to: choose a new password (the link works once, for one hour). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("Account");
  const live = await emailTokenIsLive(token, "reset_password", new Date());
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      {live ? (
        <>
          <h1 className="text-2xl font-semibold">{t("resetTitle")}</h1>
          <ResetPasswordForm action={resetPasswordAction.bind(null, token)} />
        </>
      ) : (
        <>
          <h1 className="text-2xl font-semibold">{t("badLinkTitle")}</h1>
          <p>{t("badLinkBody")}</p>
          <Link href="/reset-password" className="text-orange-700 underline dark:text-orange-400">
            {t("resetRequestTitle")}
          </Link>
        </>
      )}
    </main>
  );
}
