import { fieldMessages } from "@/lib/core";

/**
 * Every field message lib/tenancy can produce, by a stable key. The English text is also the API's problem
 * detail; the UI shows the same key from the catalog (messages/<locale>/settings.json, namespace
 * SettingsFieldErrors), and a test keeps the English catalog equal to these strings.
 */
export const TENANCY_FIELD_MESSAGES = fieldMessages("SettingsFieldErrors", {
  roleInvalid: "Choose a role: owner, admin, member or viewer",
  invitationInvalid: "Choose a pending invitation",
  memberInvalid: "Choose a member",
  projectInvalid: "Choose a project",
  projectNameRequired: "Enter a project name",
  projectNameTooShort: "Project names need at least 2 characters",
  projectNameTooLong: "Project names are at most 60 characters",
  organizationNameRequired: "Enter an organization name",
  organizationNameTooShort: "Organization names need at least 2 characters",
  organizationNameTooLong: "Organization names are at most 80 characters",
  slugRequired: "Enter a project slug",
  slugTooShort: "Project slugs need at least 2 characters",
  slugTooLong: "Project slugs are at most 40 characters",
  slugPattern: "Use lower-case letters, digits and single hyphens, like ml-research",
  slugTaken: "A project with this slug already exists in this organization",
  environmentInvalid: "Choose an environment: development, staging or production",
  jurisdictionInvalid: "Choose jurisdictions from the list",
  jurisdictionsTooMany: "Choose at most 50 jurisdictions",
  alreadyMember: "This person is already a member of the organization",
  alreadyInvited: "This email already has an invitation. Resend or revoke it instead.",
});
