"use server";

import { getTranslations } from "next-intl/server";
// The settings area's error mapping (reason/code → catalog, field messages → catalog) serves this page too.
import { localizedActionError } from "@/app/(console)/[org]/settings/action-error";
import { signUpWithInvitation } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { acceptInvitation } from "@/lib/tenancy";

type Joined = ActionResult<{ orgSlug: string; email: string }>;

/** A signed-in person with the invited email joins the organization. */
export async function acceptInvitationAction(
  token: string,
  _prev: Joined | null,
  _fd: FormData,
): Promise<Joined> {
  const actor = await getActor();
  if (!actor) return { ok: false, message: (await getTranslations("Invite"))("errors.signInFirst") };
  try {
    const { org } = await acceptInvitation({ actor }, token);
    return { ok: true, data: { orgSlug: org.slug, email: actor.email } };
  } catch (err) {
    return localizedActionError(err, "acceptInvitation", "Invite.errors");
  }
}

/** A new person creates their account with the invited email and joins; the client then signs them in. */
export async function joinWithInvitationAction(
  token: string,
  _prev: Joined | null,
  fd: FormData,
): Promise<Joined> {
  try {
    const { org, user } = await signUpWithInvitation({}, token, {
      name: fd.get("name"),
      password: fd.get("password"),
    });
    return { ok: true, data: { orgSlug: org.slug, email: user.email } };
  } catch (err) {
    return localizedActionError(err, "joinWithInvitation", "Invite.errors");
  }
}
