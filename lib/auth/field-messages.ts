import { EMAIL_FIELD_MESSAGES, fieldMessages } from "@/lib/core";

/**
 * Every field message lib/auth can produce, by a stable key. The English text is also the API's problem
 * detail; the UI shows the same key from the catalog (messages/<locale>/auth.json, namespace AuthFieldErrors),
 * and a test keeps the English catalog equal to these strings.
 */
export const AUTH_FIELD_MESSAGES = fieldMessages("AuthFieldErrors", {
  ...EMAIL_FIELD_MESSAGES,
  passwordRequired: "Enter a password",
  passwordTooShort: "Use at least 12 characters",
  passwordTooLong: "Use at most 128 characters",
  signInPasswordRequired: "Enter your password",
  nameRequired: "Enter your name",
  nameTooLong: "Names are at most 100 characters",
  organizationNameRequired: "Enter an organization name",
  organizationNameTooShort: "Organization names need at least 2 characters",
  organizationNameTooLong: "Organization names are at most 80 characters",
  organizationNameReserved: "This name is reserved for the console's own pages. Choose another name.",
  emailTaken: "An account with this email already exists. Sign in instead.",
  emailTakenInvited: "An account with this email already exists. Sign in to accept.",
});
