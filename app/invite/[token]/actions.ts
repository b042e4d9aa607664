"use server";

import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
// The settings area's error mapping (reason/code → catalog, field messages → catalog) serves this page too.
import { localizedActionError } from "@/app/(console)/[org]/settings/action-error";
import { sendVerificationEmail, signUpWithInvitation } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import { type ActionResult, InvalidStateError } from "@/lib/core";
import { acceptInvitation } from "@/lib/tenancy";
import { signInFromAction } from "../../(auth)/session-cookies";

type Joined = ActionResult;

/** A signed-in person with the invited email joins the organization and lands in it. */
export async function acceptInvitationAction(
  token: string,
  _prev: Joined | null,
  _fd: FormData,
): Promise<Joined> {
  const actor = await getActor();
  if (!actor) return { ok: false, message: (await getTranslations("Invite"))("errors.signInFirst") };
  let orgSlug: string;
  try {
    orgSlug = (await acceptInvitation({ actor }, token)).org.slug;
  } catch (err) {
    // An address not yet proven: send the verification link now, and say so.
    if (err instanceof InvalidStateError && err.details.reason === "email_unverified") {
      await sendVerificationEmail({ actor }, { locale: await getLocale() }).catch(() => {});
    }
    return localizedActionError(err, "acceptInvitation", "Invite.errors");
  }
  redirect(`/${orgSlug}/catalog`);
}

/**
 * A new person creates their account with the invited email and joins; then they are signed in on the server
 * (next-auth issues the session) and land in the organization. Works without JavaScript.
 */
export async function joinWithInvitationAction(
  token: string,
  _prev: Joined | null,
  fd: FormData,
): Promise<Joined> {
  let joined: { orgSlug: string; email: string };
  try {
    const { org, user } = await signUpWithInvitation({}, token, {
      name: fd.get("name"),
      password: fd.get("password"),
    });
    joined = { orgSlug: org.slug, email: user.email };
  } catch (err) {
    return localizedActionError(err, "joinWithInvitation", "Invite.errors");
  }
  const failed = await signInFromAction(joined.email, String(fd.get("password") ?? ""));
  redirect(failed ? "/signin" : `/${joined.orgSlug}/catalog`);
}
