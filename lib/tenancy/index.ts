export {
  listMyOrganizations,
  type OrgAccess,
  type OrgSummary,
  requireOperator,
  requireOrgAccess,
} from "./access";
export { createOrganizationWithOwner, slugify } from "./organizations";
export { ORG_ROLES, type OrgRole, roleAtLeast } from "./roles";
