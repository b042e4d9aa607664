/**
 * lib/access: who may do what in which organization — the roles, the one gate for tenant data
 * (requireOrgAccess), the operator check, and the actor types every lib function's context carries. A leaf:
 * it imports only lib/core and lib/db, and every domain imports it (never the other way round).
 */
export type { Actor, Ctx, SystemActor, UserActor } from "@/lib/core";
export { POLICY_ACTOR } from "./actors";
export {
  judgeOrgAccess,
  listMyOrganizations,
  type OrgAccess,
  type OrgAccessRow,
  type OrgSummary,
  orgAccessSql,
  requireOperator,
  requireOrgAccess,
  requireOrgAccessOrSystem,
} from "./gate";
export { ORG_ROLES, type OrgRole, roleAtLeast } from "./roles";
