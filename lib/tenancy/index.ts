export {
  acceptInvitation,
  acceptInvitationInTx,
  findInvitationByToken,
  type InvitationStatus,
  type InvitationView,
} from "./accept-invitation";
export {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_FIELD_MESSAGES,
  API_TOKEN_SCOPES,
  type ApiTokenView,
  authenticateApiToken,
  type CreateApiTokenInput,
  createApiToken,
  createApiTokenSchema,
  hashApiToken,
  listApiTokens,
  revokeApiToken,
} from "./api-tokens";
export { invitationLink } from "./invitation-email";
export {
  hashInvitationToken,
  INVITATION_TTL_MS,
  type InvitationTagView,
  invitationTagView,
  inviteMember,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from "./invitations";
export {
  changeMemberRole,
  getMember,
  leaveOrganization,
  listMembers,
  type Member,
  type MemberPrecondition,
  removeMember,
} from "./members";
export { createOrganizationWithOwner, slugify } from "./organizations";
export { createProject, listProjects, type Project, updateProject } from "./projects";
export { isReservedOrgSlug, RESERVED_ORG_SLUGS } from "./reserved-slugs";
export {
  ASSIGNABLE_ROLES,
  changeRoleSchema,
  createProjectSchema,
  dataResidencySchema,
  inviteSchema,
  PROJECT_ENVIRONMENTS,
  type ProjectEnvironment,
  renameOrganizationSchema,
  updateProjectSchema,
} from "./schemas";
export {
  getOrganizationSettings,
  type Jurisdiction,
  listJurisdictions,
  renameOrganization,
  setDataResidency,
} from "./settings";
