"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
import { publicAction } from "@/app/_kit/org-action";
import { requestOrigin, sameOriginPath, signUp } from "@/lib/auth";
import type { ActionResult } from "@/lib/core";
import { actionClientAddress, signInFromAction } from "./session-cookies";

/**
 * Sign in with email and password. A server action bound to the form's `action`, so it also works when the
 * page's JavaScript has not loaded: the browser POSTs the form (the password never lands in a URL), and the
 * answer is a redirect to the callback path on this same origin. (next-auth answers with a message, not an
 * error, so this one needs no error adapter.)
 */
export async function signInAction(_prev: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const email = String(formData.get("email") ?? "");
  const password = String(formData.get("password") ?? "");
  const failed = await signInFromAction(email, password);
  if (failed) return { ok: false, message: failed };
  redirect(sameOriginPath(formData.get("callbackUrl"), requestOrigin(await headers())));
}

/** Create the account and its organization, sign in, and land in the new organization. */
export const signUpAction = publicAction(
  { label: "signUp", area: "AuthErrors" },
  async (_prev: ActionResult | null, formData: FormData) => {
    const { org } = await signUp({}, Object.fromEntries(formData), {
      clientIp: await actionClientAddress(),
      locale: await getLocale(),
    });
    const failed = await signInFromAction(String(formData.get("email")), String(formData.get("password")));
    // The account exists either way; if signing in did not work, the sign-in page says why.
    return { redirectTo: failed ? "/signin" : `/${org.slug}/catalog` };
  },
);
