import { z } from "zod";
import { emailSchema } from "@/lib/core";
import { isReservedOrgSlug, slugify } from "@/lib/tenancy";
import { AUTH_FIELD_MESSAGES as M } from "./field-messages";

export const PASSWORD_MIN = 12;
// The password messages in field-messages.ts spell these numbers out.
export const PASSWORD_MAX = 128;

// Defined in lib/core: lib/tenancy validates invitation emails with it too, and lib/auth sits above tenancy.
export { emailSchema };

export const passwordSchema = z
  .string({ error: M.passwordRequired })
  .min(PASSWORD_MIN, M.passwordTooShort)
  .max(PASSWORD_MAX, M.passwordTooLong);

export const signUpSchema = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(100, M.nameTooLong),
  email: emailSchema,
  password: passwordSchema,
  organizationName: z
    .string({ error: M.organizationNameRequired })
    .trim()
    .min(2, M.organizationNameTooShort)
    .max(80, M.organizationNameTooLong)
    // The slug is derived from the name; one equal to a top-level route would shadow it.
    .refine((name) => !isReservedOrgSlug(slugify(name)), M.organizationNameReserved),
});
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: M.signInPasswordRequired })
    .min(1, M.signInPasswordRequired)
    .max(PASSWORD_MAX, M.passwordTooLong),
});

/** Sign-up from an invitation link: the email is the invited one (proven by the token), no organization. */
export const invitedSignUpSchema = z.object({
  name: signUpSchema.shape.name,
  password: passwordSchema,
});
