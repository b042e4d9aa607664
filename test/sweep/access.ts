/**
 * Who may use each route, page and server action. The sweeps enumerate app/ themselves and fail on anything
 * found here without an entry (and on entries that no longer exist), so a new route is classified by whoever
 * adds it, and then swept for tenant isolation, role refusals and anonymous access without anyone listing it.
 *
 * Levels: "public" (no sign-in), "signed-in" (any signed-in user, no organization), an organization role
 * (viewer < member < admin < owner: the least that is allowed), "operator" (platform admins only).
 */
export type OrgLevel = "viewer" | "member" | "admin" | "owner";
export type Level = "public" | "signed-in" | OrgLevel | "operator";

/** Route handlers by "METHOD /path/[param]" (route groups removed). */
export const API_ACCESS: Record<string, Level> = {
  "GET /api/health": "public",
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/launch-spec.schema.json": "public",
  "GET /api/v1/apply.schema.json": "public",
  // next-auth's own endpoints (sign-in, callback, session, csrf): public by design, exercised by the
  // sign-in/SSO journeys in e2e/, not by this sweep.
  "GET /api/auth/[...nextauth]": "public",
  "POST /api/auth/[...nextauth]": "public",
  "GET /api/v1/me": "signed-in",
  "POST /api/v1/admin/tenants/[org]/suspend": "operator",
  "POST /api/v1/admin/tenants/[org]/reactivate": "operator",
  "POST /api/v1/admin/nodes/[id]/drain": "operator",
  "POST /api/v1/admin/nodes/[id]/fail": "operator",
  "POST /api/v1/admin/nodes/[id]/activate": "operator",
  "PUT /api/v1/admin/nodes/[id]/mig-layout": "operator",
  "GET /api/v1/admin/nodes": "operator",
  "POST /api/v1/admin/nodes": "operator",
  "GET /api/v1/admin/audit/export": "operator",
  "GET /api/v1/admin/quotas": "operator",
  "PUT /api/v1/admin/quotas": "operator",
  "GET /api/v1/admin/cohorts": "operator",
  "POST /api/v1/admin/cohorts": "operator",
  "PUT /api/v1/admin/cohort-members": "operator",
  "DELETE /api/v1/admin/cohort-members/[orgId]": "operator",
  "GET /api/v1/admin/quota-defaults": "operator",
  "PUT /api/v1/admin/quota-defaults": "operator",
  "GET /api/v1/admin/capacity-plan": "operator",
  "GET /api/v1/admin/quota-requests": "operator",
  "POST /api/v1/admin/quota-requests/[id]/approve": "operator",
  "POST /api/v1/admin/quota-requests/[id]/deny": "operator",
  "GET /api/v1/admin/prices": "operator",
  "POST /api/v1/admin/prices": "operator",
  "DELETE /api/v1/admin/prices/[id]": "operator",
  "GET /api/v1/orgs/[org]/catalog/offerings": "viewer",
  "GET /api/v1/orgs/[org]/projects": "viewer",
  "POST /api/v1/orgs/[org]/projects": "admin",
  "GET /api/v1/orgs/[org]/auto-shutdown/policies": "viewer",
  "PUT /api/v1/orgs/[org]/auto-shutdown/policies": "admin",
  "GET /api/v1/orgs/[org]/auto-shutdown/policies/[id]": "viewer",
  "DELETE /api/v1/orgs/[org]/auto-shutdown/policies/[id]": "admin",
  "GET /api/v1/orgs/[org]/members": "viewer",
  "GET /api/v1/orgs/[org]/members/[id]": "viewer",
  "PUT /api/v1/orgs/[org]/members/[id]": "admin",
  "DELETE /api/v1/orgs/[org]/members/[id]": "admin",
  "GET /api/v1/orgs/[org]/invitations": "admin",
  "POST /api/v1/orgs/[org]/invitations": "admin",
  "DELETE /api/v1/orgs/[org]/invitations/[id]": "admin",
  "GET /api/v1/orgs/[org]/quotas": "viewer",
  "GET /api/v1/orgs/[org]/quota-policy": "viewer",
  "PUT /api/v1/orgs/[org]/quota-policy": "admin",
  "GET /api/v1/orgs/[org]/quota-requests": "viewer",
  "POST /api/v1/orgs/[org]/quota-requests": "member",
  "GET /api/v1/orgs/[org]/instances": "viewer",
  "POST /api/v1/orgs/[org]/instances": "member",
  "GET /api/v1/orgs/[org]/instances/launch-preview": "viewer",
  "GET /api/v1/orgs/[org]/instances/[id]": "viewer",
  "GET /api/v1/orgs/[org]/instances/[id]/logs": "viewer",
  "GET /api/v1/orgs/[org]/instances/[id]/metrics": "viewer",
  // Admins and owners (and operators, by console session); the sweep's simulated instance answers 409.
  "GET /api/v1/orgs/[org]/instances/[id]/manifests": "admin",
  "POST /api/v1/orgs/[org]/instances/[id]/cancel": "member",
  "POST /api/v1/orgs/[org]/instances/[id]/start": "member",
  "POST /api/v1/orgs/[org]/instances/[id]/stop": "member",
  "POST /api/v1/orgs/[org]/instances/[id]/terminate": "member",
  "GET /api/v1/orgs/[org]/usage/export": "viewer",
  "GET /api/v1/orgs/[org]/usage/reservations": "viewer",
  "POST /api/v1/orgs/[org]/usage/reservations": "admin",
  "POST /api/v1/orgs/[org]/usage/reservations/quote": "viewer",
  "GET /api/v1/orgs/[org]/services": "viewer",
  "POST /api/v1/orgs/[org]/services": "member",
  "GET /api/v1/orgs/[org]/services/[id]": "viewer",
  "PATCH /api/v1/orgs/[org]/services/[id]": "member",
  "DELETE /api/v1/orgs/[org]/services/[id]": "member",
  "PUT /api/v1/orgs/[org]/services/[id]/auth": "member",
  "GET /api/v1/orgs/[org]/services/[id]/stats": "viewer",
  "GET /api/v1/orgs/[org]/services/[id]/events": "viewer",
  "GET /api/v1/orgs/[org]/budgets": "viewer",
  "POST /api/v1/orgs/[org]/budgets": "admin",
  "GET /api/v1/orgs/[org]/budgets/[id]": "viewer",
  "PUT /api/v1/orgs/[org]/budgets/[id]": "admin",
  "DELETE /api/v1/orgs/[org]/budgets/[id]": "admin",
  "GET /api/v1/orgs/[org]/budgets/[id]/alerts": "viewer",
  "GET /api/v1/orgs/[org]/instances/[id]/events": "viewer",
  "GET /api/v1/orgs/[org]/instances/[id]/queue": "viewer",
  "POST /api/v1/orgs/[org]/instances/[id]/snooze": "member",
  "GET /api/v1/orgs/[org]/catalog/regions": "viewer",
  "GET /api/v1/orgs/[org]/catalog/gpu-models": "viewer",
  "GET /api/v1/orgs/[org]/usage/summary": "viewer",
  "GET /api/v1/orgs/[org]/usage/daily": "viewer",
  "GET /api/v1/orgs/[org]/usage/top-instances": "viewer",
  "GET /api/v1/orgs/[org]/notifications": "viewer",
  "POST /api/v1/orgs/[org]/notifications/read": "viewer",
  "GET /api/v1/orgs/[org]/webhooks": "admin",
  "POST /api/v1/orgs/[org]/webhooks": "admin",
  "GET /api/v1/orgs/[org]/webhooks/[id]": "admin",
  "PATCH /api/v1/orgs/[org]/webhooks/[id]": "admin",
  "DELETE /api/v1/orgs/[org]/webhooks/[id]": "admin",
  "GET /api/v1/orgs/[org]/webhooks/[id]/deliveries": "admin",
  "POST /api/v1/orgs/[org]/webhooks/[id]/test": "admin",
  "POST /api/v1/orgs/[org]/webhooks/[id]/deliveries/[deliveryId]/resend": "admin",
};

/**
 * Pages by path pattern (route groups removed). Console pages render for every member of the organization
 * and gate their controls by role (an admins-only page shows a viewer who may see it, with no data or form):
 * the feature journeys check what each role sees. The level here is who gets the page at all: "viewer" means
 * any member (another organization's owner gets a 404), "operator" the platform admins (everyone else a 404).
 */
export const PAGE_ACCESS: Record<string, Level> = {
  "/": "public",
  "/signin": "public",
  "/signup": "public",
  "/invite/[token]": "public",
  "/reset-password": "public",
  "/reset-password/[token]": "public",
  "/verify-email/[token]": "public",
  "/verify-email/done": "public",
  "/[org]": "viewer",
  "/[org]/audit": "viewer",
  "/[org]/budgets": "viewer",
  "/[org]/budgets/new": "viewer",
  "/[org]/budgets/[id]": "viewer",
  "/[org]/budgets/[id]/edit": "viewer",
  "/[org]/catalog": "viewer",
  "/[org]/catalog/compare": "viewer",
  "/[org]/instances": "viewer",
  "/[org]/instances/new": "viewer",
  "/[org]/instances/[id]": "viewer",
  "/[org]/notifications": "viewer",
  "/[org]/queues": "viewer",
  "/[org]/quotas": "viewer",
  "/[org]/services": "viewer",
  "/[org]/services/new": "viewer",
  "/[org]/services/[id]": "viewer",
  "/[org]/settings": "viewer",
  "/[org]/settings/auto-shutdown": "viewer",
  "/[org]/settings/members": "viewer",
  "/[org]/settings/projects": "viewer",
  "/[org]/settings/tokens": "viewer",
  "/[org]/settings/api": "viewer",
  "/[org]/settings/webhooks": "viewer",
  // Admins only: to everyone else an endpoint is as absent as another tenant's (a 404).
  "/[org]/settings/webhooks/[id]": "viewer",
  "/[org]/usage": "viewer",
  "/[org]/usage/reservations": "viewer",
  "/admin": "operator",
  "/admin/audit": "operator",
  "/admin/capacity": "operator",
  "/admin/fleet": "operator",
  "/admin/fleet/nodes": "operator",
  "/admin/fleet/nodes/new": "operator",
  "/admin/fleet/nodes/[id]": "operator",
  "/admin/outbox": "operator",
  "/admin/prices": "operator",
  "/admin/outbox/[id]": "operator",
  "/admin/quotas": "operator",
  "/admin/quota-requests": "operator",
  "/admin/tenants": "operator",
  "/admin/tenants/[org]": "operator",
};

/** Server actions by "file#export" (file relative to app/; outside app/, "@/" and the path from the root). */
export const ACTION_ACCESS: Record<string, Level> = {
  "(auth)/actions.ts#signUpAction": "public",
  "(auth)/actions.ts#signInAction": "public",
  "(auth)/account-actions.ts#requestResetAction": "public",
  "(auth)/account-actions.ts#resetPasswordAction": "public",
  "(auth)/account-actions.ts#verifyEmailAction": "public",
  // Only sets the reader's language cookie.
  "@/components/shell/preferences-actions.ts#setLocaleAction": "public",
  "invite/[token]/actions.ts#acceptInvitationAction": "signed-in",
  "invite/[token]/actions.ts#joinWithInvitationAction": "public",
  "(console)/[org]/budgets/actions.ts#createBudgetAction": "admin",
  "(console)/[org]/budgets/actions.ts#updateBudgetAction": "admin",
  "(console)/[org]/budgets/actions.ts#deleteBudgetAction": "admin",
  "(console)/[org]/instances/actions.ts#instanceAction": "member",
  "(console)/[org]/instances/actions.ts#stopInstancesAction": "member",
  "(console)/[org]/instances/[id]/actions.ts#snoozeShutdownAction": "member",
  "(console)/[org]/instances/new/actions.ts#launchInstanceAction": "member",
  "(console)/[org]/notifications/actions.ts#markReadAction": "viewer",
  "(console)/[org]/services/actions.ts#createServiceAction": "member",
  "(console)/[org]/services/actions.ts#updateServiceScalingAction": "member",
  "(console)/[org]/services/actions.ts#setServiceAuthAction": "member",
  "(console)/[org]/services/actions.ts#deleteServiceAction": "member",
  "(console)/[org]/settings/actions.ts#renameOrganizationAction": "admin",
  "(console)/[org]/settings/actions.ts#setDataResidencyAction": "admin",
  "(console)/[org]/settings/actions.ts#leaveOrganizationAction": "viewer",
  "(console)/[org]/settings/auto-shutdown/actions.ts#savePolicyAction": "admin",
  "(console)/[org]/settings/auto-shutdown/actions.ts#deletePolicyAction": "admin",
  "(console)/[org]/settings/members/actions.ts#inviteMemberAction": "admin",
  "(console)/[org]/settings/members/actions.ts#resendInvitationAction": "admin",
  "(console)/[org]/settings/members/actions.ts#revokeInvitationAction": "admin",
  "(console)/[org]/settings/members/actions.ts#changeRoleAction": "admin",
  "(console)/[org]/settings/members/actions.ts#removeMemberAction": "admin",
  "(console)/[org]/settings/projects/actions.ts#createProjectAction": "admin",
  "(console)/[org]/settings/projects/actions.ts#updateProjectAction": "admin",
  "(console)/[org]/settings/tokens/actions.ts#createTokenAction": "member",
  "(console)/[org]/settings/tokens/actions.ts#revokeTokenAction": "viewer",
  "(console)/[org]/settings/webhooks/actions.ts#createWebhookAction": "admin",
  "(console)/[org]/settings/webhooks/actions.ts#setWebhookEnabledAction": "admin",
  "(console)/[org]/settings/webhooks/actions.ts#deleteWebhookAction": "admin",
  "(console)/[org]/settings/webhooks/actions.ts#sendTestWebhookAction": "admin",
  "(console)/[org]/settings/webhooks/actions.ts#resendWebhookAction": "admin",
  "(console)/[org]/quotas/actions.ts#requestQuotaAction": "member",
  "(console)/[org]/quotas/actions.ts#setProjectShareAction": "admin",
  "(console)/[org]/quotas/actions.ts#setQuotaPolicyAction": "admin",
  "(console)/[org]/usage/reservations/actions.ts#quoteReservationAction": "viewer",
  "(console)/[org]/usage/reservations/actions.ts#purchaseReservationAction": "admin",
  "admin/quotas/actions.ts#setOrgQuotaAction": "operator",
  "admin/quota-requests/actions.ts#decideQuotaRequestAction": "operator",
  "admin/quotas/actions.ts#setQuotaDefaultAction": "operator",
  "admin/quotas/actions.ts#createCohortAction": "operator",
  "admin/quotas/actions.ts#setCohortMemberAction": "operator",
  "admin/quotas/actions.ts#removeCohortMemberAction": "operator",
  "admin/tenants/[org]/actions.ts#suspendTenantAction": "operator",
  "admin/tenants/[org]/actions.ts#reactivateTenantAction": "operator",
  "admin/fleet/actions.ts#addNodeAction": "operator",
  "admin/fleet/actions.ts#drainNodeAction": "operator",
  "admin/fleet/actions.ts#failNodeAction": "operator",
  "admin/fleet/actions.ts#activateNodeAction": "operator",
  "admin/fleet/actions.ts#setMigLayoutAction": "operator",
  "admin/prices/actions.ts#schedulePriceAction": "operator",
  "admin/prices/actions.ts#cancelPriceAction": "operator",
};

const ORDER: OrgLevel[] = ["viewer", "member", "admin", "owner"];

/** The organization roles that must be refused for this level (none for public/signed-in/operator). */
export function rolesBelow(level: Level): OrgLevel[] {
  const i = ORDER.indexOf(level as OrgLevel);
  return i < 0 ? [] : ORDER.slice(0, i);
}

export function isOrgLevel(level: Level): level is OrgLevel {
  return ORDER.includes(level as OrgLevel);
}

/** "app/(console)/[org]/instances/(list)/page.tsx" → "/[org]/instances". */
export function routePattern(file: string): string {
  const parts = file
    .replace(/^\/?app\//, "")
    .split("/")
    .slice(0, -1)
    .filter((p) => !(p.startsWith("(") && p.endsWith(")")));
  return `/${parts.join("/")}`;
}
