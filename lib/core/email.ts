import { z } from "zod";
import { fieldMessages } from "./messages";

/**
 * The email field, shared by sign-up/sign-in (lib/auth) and invitations (lib/tenancy). It lives here because
 * lib/auth sits above lib/tenancy (sign-up creates an organization), so tenancy cannot import it from auth.
 * The messages are part of lib/auth's field messages (AuthFieldErrors in the catalog).
 */
export const EMAIL_FIELD_MESSAGES = fieldMessages("AuthFieldErrors", {
  emailRequired: "Enter an email address",
  emailTooLong: "Email addresses are at most 254 characters",
  emailInvalid: "Enter a valid email address, like name@example.com",
});

const M = EMAIL_FIELD_MESSAGES;

export const emailSchema = z
  .string({ error: M.emailRequired })
  .trim()
  .min(1, M.emailRequired)
  .max(254, M.emailTooLong)
  .pipe(z.email({ error: M.emailInvalid }))
  .transform((e) => e.toLowerCase());
