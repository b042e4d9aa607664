import { z } from "zod";

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string({ error: "Enter an email address" })
  .trim()
  .min(1, "Enter an email address")
  .max(254, "Email addresses are at most 254 characters")
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com" }))
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: "Enter a password" })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`);

export const signUpSchema = z.object({
  name: z
    .string({ error: "Enter your name" })
    .trim()
    .min(1, "Enter your name")
    .max(100, "Names are at most 100 characters"),
  email: emailSchema,
  password: passwordSchema,
  organizationName: z
    .string({ error: "Enter an organization name" })
    .trim()
    .min(2, "Organization names need at least 2 characters")
    .max(80, "Organization names are at most 80 characters"),
});
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password").max(PASSWORD_MAX),
});

/** Sign-up from an invitation link: the email is the invited one (proven by the token), no organization. */
export const invitedSignUpSchema = z.object({
  name: signUpSchema.shape.name,
  password: passwordSchema,
});
