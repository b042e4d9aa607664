"use server";

import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
// The settings area's error mapping (reason/code → catalog, field messages → catalog) serves these forms too.
import { localizedActionError } from "@/app/(console)/[org]/settings/action-error";
import { requestPasswordReset, resetPassword, verifyEmail } from "@/lib/auth";
import type { ActionResult } from "@/lib/core";
import { actionClientAddress, signInFromAction } from "./session-cookies";

/** Confirm the address from the emailed link (a POST, so link scanners that only GET do not use it up). */
export async function verifyEmailAction(
  token: string,
  _prev: ActionResult | null,
  _fd: FormData,
): Promise<ActionResult> {
  try {
    await verifyEmail({}, token);
  } catch (err) {
    return localizedActionError(err, "verifyEmail", "Account.errors");
  }
  redirect("/verify-email/done");
}

/** Ask for a reset link; the answer is the same whether or not the address has an account. */
export async function requestResetAction(_prev: ActionResult | null, fd: FormData): Promise<ActionResult> {
  try {
    await requestPasswordReset(
      {},
      { email: fd.get("email") },
      { clientIp: await actionClientAddress(), locale: await getLocale() },
    );
  } catch (err) {
    return localizedActionError(err, "requestPasswordReset", "Account.errors");
  }
  return { ok: true };
}

/** Set the new password, then sign in with it (next-auth issues the session) and go to the console. */
export async function resetPasswordAction(
  token: string,
  _prev: ActionResult | null,
  fd: FormData,
): Promise<ActionResult> {
  let email: string;
  try {
    email = (await resetPassword({}, token, { password: fd.get("password") })).email;
  } catch (err) {
    return localizedActionError(err, "resetPassword", "Account.errors");
  }
  const failed = await signInFromAction(email, String(fd.get("password") ?? ""));
  redirect(failed ? "/signin" : "/");
}
