import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { emailTokenIsLive, getUserById } from "@/lib/auth";
import { verifyEmailAction } from "../../account-actions";
import { ConfirmEmailForm } from "../../account-forms";

export const dynamic = "force-dynamic";

const link = "text-orange-700 underline dark:text-orange-400";

/** The page the verification email links to: one button confirms (a POST; opening the link changes nothing). */
export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("Account");
  const live = await emailTokenIsLive(token, "verify_email", new Date());
  const user = live ? await getUserById(live.userId) : null;
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      {user ? (
        <>
          <h1 className="text-2xl font-semibold">{t("verifyTitle")}</h1>
          <p>{t("verifyBody", { email: user.email })}</p>
          <ConfirmEmailForm action={verifyEmailAction.bind(null, token)} />
        </>
      ) : (
        <>
          <h1 className="text-2xl font-semibold">{t("badLinkTitle")}</h1>
          <p>{t("badLinkBody")}</p>
          <Link href="/" className={link}>
            {t("continue")}
          </Link>
        </>
      )}
    </main>
  );
}
