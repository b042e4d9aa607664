"use server";

import { getLocale } from "next-intl/server";
import { publicAction } from "@/app/_kit/org-action";
import { sendVerificationEmail, signUpWithInvitation } from "@/lib/auth";
import { getActor } from "@/lib/auth/session";
import { type ActionResult, InvalidStateError, UnauthorizedError } from "@/lib/core";
import { acceptInvitation } from "@/lib/tenancy";
import { signInFromAction } from "../../(auth)/session-cookies";

type Prev = ActionResult | null;
const opts = (label: string) => ({ label, area: "Invite.errors" });

/** A signed-in person with the invited email joins the organization and lands in it. */
export const acceptInvitationAction = publicAction(
  opts("acceptInvitation"),
  async (token: string, _prev: Prev, _fd: FormData) => {
    const actor = await getActor();
    if (!actor) throw new UnauthorizedError("Sign in to accept this invitation", { reason: "signInFirst" });
    try {
      const { org } = await acceptInvitation({ actor }, token);
      return { redirectTo: `/${org.slug}/catalog` };
    } catch (err) {
      // An address not yet proven: send the verification link now (the adapter then says so).
      if (err instanceof InvalidStateError && err.reason === "email_unverified") {
        await sendVerificationEmail({ actor }, { locale: await getLocale() }).catch(() => {});
      }
      throw err;
    }
  },
);

/**
 * A new person creates their account with the invited email and joins; then they are signed in on the server
 * (next-auth issues the session) and land in the organization. Works without JavaScript.
 */
export const joinWithInvitationAction = publicAction(
  opts("joinWithInvitation"),
  async (token: string, _prev: Prev, fd: FormData) => {
    const { org, user } = await signUpWithInvitation({}, token, {
      name: fd.get("name"),
      password: fd.get("password"),
    });
    const failed = await signInFromAction(user.email, String(fd.get("password") ?? ""));
    return { redirectTo: failed ? "/signin" : `/${org.slug}/catalog` };
  },
);
