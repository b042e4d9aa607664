import { z } from "zod";
// The leaf schema module, not lib/auth's index: lib/auth depends on lib/tenancy, so the index would be a cycle.
import { emailSchema } from "@/lib/auth/schemas";

/** Roles an invitation or a role change may grant (validated again against the actor's own role). */
export const ASSIGNABLE_ROLES = ["owner", "admin", "member", "viewer"] as const;
export const PROJECT_ENVIRONMENTS = ["development", "staging", "production"] as const;
export type ProjectEnvironment = (typeof PROJECT_ENVIRONMENTS)[number];

const roleSchema = z.enum(ASSIGNABLE_ROLES, { error: "Choose a role: owner, admin, member or viewer" });
const uuidSchema = (what: string) => z.uuid({ error: `Choose a ${what}` });

export const inviteSchema = z.object({ email: emailSchema, role: roleSchema });
export type InviteInput = z.input<typeof inviteSchema>;

export const invitationIdSchema = z.object({ invitationId: uuidSchema("pending invitation") });

export const changeRoleSchema = z.object({ userId: uuidSchema("member"), role: roleSchema });
export const memberIdSchema = z.object({ userId: uuidSchema("member") });

const nameSchema = (what: string, max: number) =>
  z
    .string({ error: `Enter a ${what} name` })
    .trim()
    .min(2, `${capitalize(what)} names need at least 2 characters`)
    .max(max, `${capitalize(what)} names are at most ${max} characters`);

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export const PROJECT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const projectSlugSchema = z
  .string({ error: "Enter a project slug" })
  .trim()
  .min(2, "Project slugs need at least 2 characters")
  .max(40, "Project slugs are at most 40 characters")
  .regex(PROJECT_SLUG_PATTERN, "Use lower-case letters, digits and single hyphens, like ml-research");

const environmentSchema = z.enum(PROJECT_ENVIRONMENTS, {
  error: "Choose an environment: development, staging or production",
});

/** The slug is optional on create: it is derived from the name when left empty. */
export const createProjectSchema = z.object({
  name: nameSchema("project", 60),
  slug: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    projectSlugSchema.optional(),
  ),
  environment: environmentSchema,
});
export type CreateProjectInput = z.input<typeof createProjectSchema>;

export const updateProjectSchema = z.object({
  projectId: uuidSchema("project"),
  name: nameSchema("project", 60),
  environment: environmentSchema,
});

export const renameOrganizationSchema = z.object({ name: nameSchema("organization", 80) });

/** Jurisdictions arrive as a repeated form field or an array; each is checked against the regions table. */
export const dataResidencySchema = z.object({
  jurisdictions: z.preprocess(
    (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(
        z
          .string({ error: "Choose jurisdictions from the list" })
          .trim()
          .min(1, "Choose jurisdictions from the list")
          .max(64, "Choose jurisdictions from the list"),
      )
      .max(50, "Choose at most 50 jurisdictions"),
  ),
});
