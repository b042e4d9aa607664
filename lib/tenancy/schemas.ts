import { z } from "zod";
import { emailSchema } from "@/lib/core";
import { TENANCY_FIELD_MESSAGES as M } from "./field-messages";
import { PROJECT_ENVIRONMENTS } from "./options";

/** Roles an invitation or a role change may grant (validated again against the actor's own role). */
export const ASSIGNABLE_ROLES = ["owner", "admin", "member", "viewer"] as const;
export { PROJECT_ENVIRONMENTS, type ProjectEnvironment } from "./options";

const roleSchema = z.enum(ASSIGNABLE_ROLES, { error: M.roleInvalid });
const uuidSchema = (message: string) => z.uuid({ error: message });

export const inviteSchema = z.object({ email: emailSchema, role: roleSchema });
export type InviteInput = z.input<typeof inviteSchema>;

export const invitationIdSchema = z.object({ invitationId: uuidSchema(M.invitationInvalid) });

export const changeRoleSchema = z.object({ userId: uuidSchema(M.memberInvalid), role: roleSchema });
export const memberIdSchema = z.object({ userId: uuidSchema(M.memberInvalid) });

const nameSchema = (max: number, m: { required: string; short: string; long: string }) =>
  z.string({ error: m.required }).trim().min(2, m.short).max(max, m.long);

export const PROJECT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const projectSlugSchema = z
  .string({ error: M.slugRequired })
  .trim()
  .min(2, M.slugTooShort)
  .max(40, M.slugTooLong)
  .regex(PROJECT_SLUG_PATTERN, M.slugPattern);

const environmentSchema = z.enum(PROJECT_ENVIRONMENTS, { error: M.environmentInvalid });

const projectNameSchema = nameSchema(60, {
  required: M.projectNameRequired,
  short: M.projectNameTooShort,
  long: M.projectNameTooLong,
});

/** The slug is optional on create: it is derived from the name when left empty. */
export const createProjectSchema = z.object({
  name: projectNameSchema,
  slug: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    projectSlugSchema.optional(),
  ),
  environment: environmentSchema,
});
export type CreateProjectInput = z.input<typeof createProjectSchema>;

export const updateProjectSchema = z.object({
  projectId: uuidSchema(M.projectInvalid),
  name: projectNameSchema,
  environment: environmentSchema,
});

export const renameOrganizationSchema = z.object({
  name: nameSchema(80, {
    required: M.organizationNameRequired,
    short: M.organizationNameTooShort,
    long: M.organizationNameTooLong,
  }),
});

/** Jurisdictions arrive as a repeated form field or an array; each is checked against the regions table. */
export const dataResidencySchema = z.object({
  jurisdictions: z.preprocess(
    (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(
        z
          .string({ error: M.jurisdictionInvalid })
          .trim()
          .min(1, M.jurisdictionInvalid)
          .max(64, M.jurisdictionInvalid),
        { error: M.jurisdictionInvalid },
      )
      .max(50, M.jurisdictionsTooMany),
  ),
});
