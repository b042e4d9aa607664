"use server";

import { getLocale } from "next-intl/server";
import { publicAction } from "@/app/_kit/org-action";
import { requestPasswordReset, resetPassword, verifyEmail } from "@/lib/auth";
import type { ActionResult } from "@/lib/core";
import { actionClientAddress, signInFromAction } from "./session-cookies";

type Prev = ActionResult | null;
const opts = (label: string) => ({ label, area: "Account.errors" });

/** Confirm the address from the emailed link (a POST, so link scanners that only GET do not use it up). */
export const verifyEmailAction = publicAction(
  opts("verifyEmail"),
  async (token: string, _prev: Prev, _fd: FormData) => {
    await verifyEmail({}, token);
    return { redirectTo: "/verify-email/done" };
  },
);

/** Ask for a reset link; the answer is the same whether or not the address has an account. */
export const requestResetAction = publicAction(
  opts("requestPasswordReset"),
  async (_prev: Prev, fd: FormData) => {
    await requestPasswordReset(
      {},
      { email: fd.get("email") },
      { clientIp: await actionClientAddress(), locale: await getLocale() },
    );
  },
);

/** Set the new password, then sign in with it (next-auth issues the session) and go to the console. */
export const resetPasswordAction = publicAction(
  opts("resetPassword"),
  async (token: string, _prev: Prev, fd: FormData) => {
    const { email } = await resetPassword({}, token, { password: fd.get("password") });
    const failed = await signInFromAction(email, String(fd.get("password") ?? ""));
    return { redirectTo: failed ? "/signin" : "/" };
  },
);
