import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { listMyOrganizations } from "@/lib/access";
import { getActor } from "@/lib/auth/session";
import { findInvitationByToken } from "@/lib/tenancy";
import { AcceptForm } from "./accept-form";
import { acceptInvitationAction, joinWithInvitationAction } from "./actions";
import { JoinForm } from "./join-form";
import { SignOutAndReturn } from "./sign-out-and-return";

export const dynamic = "force-dynamic";

const link = "text-orange-700 underline dark:text-orange-400";

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children}
    </main>
  );
}

/**
 * The page an invitation email links to. A signed-in person with the invited email accepts with one click;
 * someone without an account creates one here (for the invited email only) and joins in the same step;
 * anyone else is told plainly why the link does not work.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [t, tr, format, view, actor] = await Promise.all([
    getTranslations("Invite"),
    getTranslations("Roles"),
    getFormatter(),
    findInvitationByToken({}, token),
    getActor(),
  ]);
  const here = `/invite/${encodeURIComponent(token)}`;
  if (!view) {
    return (
      <Card title={t("unknownTitle")}>
        <p>{t("unknownBody")}</p>
        <Link href="/" className={link}>
          {t("goHome")}
        </Link>
      </Card>
    );
  }
  const org = view.org.name;
  if (view.status === "revoked" || view.status === "expired") {
    return (
      <Card title={t(`${view.status}Title`)}>
        <p>{t(`${view.status}Body`, { org })}</p>
      </Card>
    );
  }
  if (view.status === "accepted") {
    const mine = actor ? (await listMyOrganizations({ actor })).some((o) => o.slug === view.org.slug) : false;
    return (
      <Card title={mine ? t("joinedTitle", { org }) : t("usedTitle")}>
        {mine ? (
          <Link href={`/${view.org.slug}/catalog`} className={link}>
            {t("goTo", { org })}
          </Link>
        ) : (
          <p>{t("usedBody", { org })}</p>
        )}
      </Card>
    );
  }
  const summary = t("summary", {
    inviter: view.inviterName ?? t("someone"),
    email: view.email,
    org,
    role: tr(view.role),
  });
  const expires = t("expires", { date: format.dateTime(view.expiresAt, { dateStyle: "long" }) });
  const intro = (
    <>
      <p>{summary}</p>
      <p className="text-sm text-slate-600 dark:text-slate-400">{expires}</p>
    </>
  );
  if (actor && actor.email === view.email) {
    return (
      <Card title={t("title", { org })}>
        {intro}
        <AcceptForm action={acceptInvitationAction.bind(null, token)} />
      </Card>
    );
  }
  if (actor) {
    return (
      <Card title={t("title", { org })}>
        {intro}
        <p role="alert">{t("wrongAccount", { current: actor.email, email: view.email })}</p>
        <SignOutAndReturn callbackUrl={`/signin?callbackUrl=${encodeURIComponent(here)}`} />
      </Card>
    );
  }
  const signInHref = `/signin?callbackUrl=${encodeURIComponent(here)}`;
  return (
    <Card title={t("title", { org })}>
      {intro}
      {view.accountExists ? (
        <>
          <p>{t("signInToAccept", { email: view.email })}</p>
          <Link href={signInHref} className={link}>
            {t("signIn")}
          </Link>
        </>
      ) : (
        <>
          <h2 className="text-lg font-semibold">{t("createHeading")}</h2>
          <JoinForm email={view.email} action={joinWithInvitationAction.bind(null, token)} />
          <p className="text-sm">
            {t("haveAccount")}{" "}
            <Link href={signInHref} className={link}>
              {t("signIn")}
            </Link>
          </p>
        </>
      )}
    </Card>
  );
}
