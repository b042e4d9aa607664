import { randomUUID } from "node:crypto";
import { suspendOrganization } from "@/lib/provisioning";
import { notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { getQuotaPolicy } from "@/lib/quotas";
import { createApiToken, inviteMember } from "@/lib/tenancy";
import { uniqueEmail } from "../factories";
import { type ActionCall, type ActionOrg, form } from "../sweep/action-calls";
import { type ApiRecipe, apiOwnerInvitation, apiOwnerMember } from "./api-calls";

/**
 * The role matrix: who may do each operator and organization-admin action, as the one table the test
 * (matrix.test.ts) and the documentation (docs/roles.md, checked against it) are made from. Each row names
 * the server action (a key of test/sweep/access.ts's ACTION_ACCESS) and/or the API route (a key of
 * API_ACCESS) that do it, and the callers allowed; everyone else is refused, by default with Forbidden (403)
 * for a member of the organization whose role is too weak, NotFound (404) for anyone who is not a member (a
 * platform operator, another organization's admin), and Forbidden for every non-operator on operator actions.
 *
 * access.ts holds the least role of each entry point and the sweeps check it from below; a row here says it
 * for every caller, and a row may be narrower than its entry point's level (a rule inside the action: only
 * owners touch owners, a priority above the default is the admins') — then it says why.
 * Adding an action means adding a row: the test fails for an admin or operator entry point that no row names.
 */
export const CALLERS = ["viewer", "member", "admin", "owner", "operator", "other-admin"] as const;
export type Caller = (typeof CALLERS)[number];
/** How a refused caller is told: Forbidden (403), NotFound (404), or a field error on the input (422). */
export type Refusal = "forbidden" | "not-found" | "field";

export type MatrixRow = {
  area: string;
  /** What the caller does, in words (the docs' table). */
  what: string;
  action?: string;
  api?: string;
  allowed: readonly Caller[];
  /** Set when the row allows fewer callers than its entry points' level in access.ts: the rule that does it. */
  narrower?: string;
  /** Refusals other than the default. */
  refusals?: Partial<Record<Caller, Refusal>>;
  /** The server action's call, when not ACTION_CALLS[action]. */
  actionCall?: (o: ActionOrg) => ActionCall | Promise<ActionCall>;
  /** The API call, when not API_CALLS[api]. */
  apiCall?: ApiRecipe;
};

const OP = ["operator"] as const;
const MEMBER = ["member", "admin", "owner"] as const;
const ADMIN = ["admin", "owner"] as const;
const OWNER = ["owner"] as const;
const admin = "admin/quotas/actions.ts";
const org = "(console)/[org]";
const ownersOnly = "only owners grant, change or remove the owner role (lib/tenancy, ADR 0002)";

/** A member added for the call (changing or removing the fixture's own would leak into the next caller). */
const fresh = async (o: ActionOrg, role: "member" | "owner" = "member") => {
  const ctx = await o.as(role);
  return ctx.actor.userId;
};
async function ownerInvitation(o: ActionOrg): Promise<string> {
  const { invitation } = await inviteMember(o.owner, o.slug, { email: uniqueEmail("own"), role: "owner" });
  return invitation.id;
}

export const MATRIX: MatrixRow[] = [
  // Operators: quotas, cohorts, quota requests.
  {
    area: "Quotas",
    what: "Set an organization's nominal, borrowing and lending limits",
    action: `${admin}#setOrgQuotaAction`,
    api: "PUT /api/v1/admin/quotas",
    allowed: OP,
  },
  { area: "Quotas", what: "Read every organization's quotas", api: "GET /api/v1/admin/quotas", allowed: OP },
  {
    area: "Quotas",
    what: "Set the default quota for new organizations",
    action: `${admin}#setQuotaDefaultAction`,
    api: "PUT /api/v1/admin/quota-defaults",
    allowed: OP,
  },
  {
    area: "Quotas",
    what: "Read the quota defaults for new organizations",
    api: "GET /api/v1/admin/quota-defaults",
    allowed: OP,
  },
  {
    area: "Cohorts",
    what: "Create a cohort",
    action: `${admin}#createCohortAction`,
    api: "POST /api/v1/admin/cohorts",
    allowed: OP,
  },
  { area: "Cohorts", what: "List cohorts", api: "GET /api/v1/admin/cohorts", allowed: OP },
  {
    area: "Cohorts",
    what: "Put an organization in a cohort, with its weight",
    action: `${admin}#setCohortMemberAction`,
    api: "PUT /api/v1/admin/cohort-members",
    allowed: OP,
  },
  {
    area: "Cohorts",
    what: "Take an organization out of its cohort",
    action: `${admin}#removeCohortMemberAction`,
    api: "DELETE /api/v1/admin/cohort-members/[orgId]",
    allowed: OP,
  },
  {
    area: "Quota requests",
    what: "Ask for more quota",
    action: `${org}/quotas/actions.ts#requestQuotaAction`,
    api: "POST /api/v1/orgs/[org]/quota-requests",
    allowed: MEMBER,
  },
  {
    area: "Quota requests",
    what: "Read the queue of quota requests",
    api: "GET /api/v1/admin/quota-requests",
    allowed: OP,
  },
  {
    area: "Quota requests",
    what: "Deny a quota request",
    action: "admin/quota-requests/actions.ts#decideQuotaRequestAction",
    api: "POST /api/v1/admin/quota-requests/[id]/deny",
    allowed: OP,
  },
  {
    area: "Quota requests",
    what: "Approve a quota request (all or part)",
    api: "POST /api/v1/admin/quota-requests/[id]/approve",
    allowed: OP,
  },
  {
    area: "Quotas",
    what: "Give a project a share of the organization's quota",
    action: `${org}/quotas/actions.ts#setProjectShareAction`,
    allowed: ADMIN,
  },
  {
    area: "Quotas",
    what: "Let higher-priority work preempt the organization's own lower-priority work",
    action: `${org}/quotas/actions.ts#setQuotaPolicyAction`,
    api: "PUT /api/v1/orgs/[org]/quota-policy",
    allowed: ADMIN,
    // Each call asks for the opposite of what is set, so every caller's call would change the row.
    actionCall: async (o) => {
      const on = (await getQuotaPolicy(o.owner, o.slug)).preemptLowerPriority;
      return { args: [null, form(on ? {} : { preemptLowerPriority: "on" })] };
    },
    apiCall: async (fx) => {
      const on = (await getQuotaPolicy(fx.a.ctx, fx.a.slug)).preemptLowerPriority;
      return { body: { preemptLowerPriority: !on } };
    },
  },
  // Operators: tenants, fleet, audit.
  {
    area: "Tenants",
    what: "Suspend an organization",
    action: "admin/tenants/[org]/actions.ts#suspendTenantAction",
    api: "POST /api/v1/admin/tenants/[org]/suspend",
    allowed: OP,
  },
  {
    area: "Tenants",
    what: "Reactivate a suspended organization",
    action: "admin/tenants/[org]/actions.ts#reactivateTenantAction",
    api: "POST /api/v1/admin/tenants/[org]/reactivate",
    allowed: OP,
    // Suspended again for every caller (the sweep's call suspends once, for one caller).
    actionCall: async (o) => {
      await suspendOrganization(o.operator, { org: o.slug, reason: "Matrix", noticeMinutes: 0 }).catch(
        () => undefined,
      );
      return { args: [null, form({ org: o.slug })] };
    },
  },
  { area: "Fleet", what: "List nodes", api: "GET /api/v1/admin/nodes", allowed: OP },
  {
    area: "Fleet",
    what: "Add a node",
    action: "admin/fleet/actions.ts#addNodeAction",
    api: "POST /api/v1/admin/nodes",
    allowed: OP,
  },
  {
    area: "Fleet",
    what: "Drain a node",
    action: "admin/fleet/actions.ts#drainNodeAction",
    api: "POST /api/v1/admin/nodes/[id]/drain",
    allowed: OP,
  },
  {
    area: "Fleet",
    what: "Mark a node failed",
    action: "admin/fleet/actions.ts#failNodeAction",
    api: "POST /api/v1/admin/nodes/[id]/fail",
    allowed: OP,
  },
  {
    area: "Fleet",
    what: "Return a node to service",
    action: "admin/fleet/actions.ts#activateNodeAction",
    api: "POST /api/v1/admin/nodes/[id]/activate",
    allowed: OP,
  },
  {
    area: "Fleet",
    what: "Change the MIG layout of an idle node",
    action: "admin/fleet/actions.ts#setMigLayoutAction",
    api: "PUT /api/v1/admin/nodes/[id]/mig-layout",
    allowed: OP,
  },
  {
    area: "Capacity",
    what: "Read the capacity plan (demand against capacity, queue-time p95, when full)",
    api: "GET /api/v1/admin/capacity-plan",
    allowed: OP,
  },
  {
    area: "Prices",
    what: "List prices against the market median",
    api: "GET /api/v1/admin/prices",
    allowed: OP,
  },
  {
    area: "Prices",
    what: "Schedule a price change",
    action: "admin/prices/actions.ts#schedulePriceAction",
    api: "POST /api/v1/admin/prices",
    allowed: OP,
  },
  {
    area: "Prices",
    what: "Cancel a scheduled price change",
    action: "admin/prices/actions.ts#cancelPriceAction",
    api: "DELETE /api/v1/admin/prices/[id]",
    allowed: OP,
  },
  {
    area: "Audit",
    what: "Export the platform audit log (CSV)",
    api: "GET /api/v1/admin/audit/export",
    allowed: OP,
  },

  // Organization admins: members and invitations.
  {
    area: "Members",
    what: "Invite an admin, member or viewer",
    action: `${org}/settings/members/actions.ts#inviteMemberAction`,
    api: "POST /api/v1/orgs/[org]/invitations",
    allowed: ADMIN,
  },
  {
    area: "Members",
    what: "Invite an owner",
    action: `${org}/settings/members/actions.ts#inviteMemberAction`,
    api: "POST /api/v1/orgs/[org]/invitations",
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: () => ({ args: [null, form({ email: uniqueEmail("own"), role: "owner" })] }),
    apiCall: () => ({ body: { email: uniqueEmail("own"), role: "owner" } }),
  },
  {
    area: "Members",
    what: "List open invitations",
    api: "GET /api/v1/orgs/[org]/invitations",
    allowed: ADMIN,
  },
  {
    area: "Members",
    what: "Resend an invitation",
    action: `${org}/settings/members/actions.ts#resendInvitationAction`,
    allowed: ADMIN,
  },
  {
    area: "Members",
    what: "Resend an owner's invitation",
    action: `${org}/settings/members/actions.ts#resendInvitationAction`,
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: async (o) => ({ args: [null, form({ invitationId: await ownerInvitation(o) })] }),
  },
  {
    area: "Members",
    what: "Revoke an invitation",
    action: `${org}/settings/members/actions.ts#revokeInvitationAction`,
    api: "DELETE /api/v1/orgs/[org]/invitations/[id]",
    allowed: ADMIN,
  },
  {
    area: "Members",
    what: "Revoke an owner's invitation",
    action: `${org}/settings/members/actions.ts#revokeInvitationAction`,
    api: "DELETE /api/v1/orgs/[org]/invitations/[id]",
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: async (o) => ({ args: [null, form({ invitationId: await ownerInvitation(o) })] }),
    apiCall: async (fx) => ({ params: { id: await apiOwnerInvitation(fx) } }),
  },
  {
    area: "Members",
    what: "Change a member's role (not to or from owner)",
    action: `${org}/settings/members/actions.ts#changeRoleAction`,
    api: "PUT /api/v1/orgs/[org]/members/[id]",
    allowed: ADMIN,
    actionCall: async (o) => ({ args: [null, form({ userId: await fresh(o), role: "viewer" })] }),
  },
  {
    area: "Members",
    what: "Make a member an owner",
    action: `${org}/settings/members/actions.ts#changeRoleAction`,
    api: "PUT /api/v1/orgs/[org]/members/[id]",
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: async (o) => ({ args: [null, form({ userId: await fresh(o), role: "owner" })] }),
    apiCall: async (fx) => ({ params: { id: await fx.newIdFor("/members/") }, body: { role: "owner" } }),
  },
  {
    area: "Members",
    what: "Change an owner's role",
    action: `${org}/settings/members/actions.ts#changeRoleAction`,
    api: "PUT /api/v1/orgs/[org]/members/[id]",
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: async (o) => ({ args: [null, form({ userId: await fresh(o, "owner"), role: "admin" })] }),
    apiCall: async (fx) => ({ params: { id: await apiOwnerMember(fx) }, body: { role: "admin" } }),
  },
  {
    area: "Members",
    what: "Remove a member",
    action: `${org}/settings/members/actions.ts#removeMemberAction`,
    api: "DELETE /api/v1/orgs/[org]/members/[id]",
    allowed: ADMIN,
    actionCall: async (o) => ({ args: [null, form({ userId: await fresh(o) })] }),
  },
  {
    area: "Members",
    what: "Remove an owner",
    action: `${org}/settings/members/actions.ts#removeMemberAction`,
    api: "DELETE /api/v1/orgs/[org]/members/[id]",
    allowed: OWNER,
    narrower: ownersOnly,
    actionCall: async (o) => ({ args: [null, form({ userId: await fresh(o, "owner") })] }),
    apiCall: async (fx) => ({ params: { id: await apiOwnerMember(fx) } }),
  },

  // Organization admins: the organization, projects, money, policies.
  {
    area: "Organization",
    what: "Rename the organization",
    action: `${org}/settings/actions.ts#renameOrganizationAction`,
    allowed: ADMIN,
  },
  {
    area: "Organization",
    what: "Restrict regions (data residency)",
    action: `${org}/settings/actions.ts#setDataResidencyAction`,
    allowed: ADMIN,
  },
  {
    area: "Projects",
    what: "Create a project",
    action: `${org}/settings/projects/actions.ts#createProjectAction`,
    api: "POST /api/v1/orgs/[org]/projects",
    allowed: ADMIN,
    actionCall: () => {
      const id = randomUUID().slice(0, 6);
      return {
        args: [null, form({ name: `Matrix ${id}`, slug: `matrix-${id}`, environment: "development" })],
      };
    },
  },
  {
    area: "Projects",
    what: "Rename a project or change its environment",
    action: `${org}/settings/projects/actions.ts#updateProjectAction`,
    allowed: ADMIN,
  },
  {
    area: "Budgets",
    what: "Create a budget",
    action: `${org}/budgets/actions.ts#createBudgetAction`,
    api: "POST /api/v1/orgs/[org]/budgets",
    allowed: ADMIN,
  },
  {
    area: "Budgets",
    what: "Change a budget",
    action: `${org}/budgets/actions.ts#updateBudgetAction`,
    api: "PUT /api/v1/orgs/[org]/budgets/[id]",
    allowed: ADMIN,
  },
  {
    area: "Budgets",
    what: "Delete a budget",
    action: `${org}/budgets/actions.ts#deleteBudgetAction`,
    api: "DELETE /api/v1/orgs/[org]/budgets/[id]",
    allowed: ADMIN,
  },
  {
    area: "Reservations",
    what: "Buy a reservation (a commitment)",
    action: `${org}/usage/reservations/actions.ts#purchaseReservationAction`,
    api: "POST /api/v1/orgs/[org]/usage/reservations",
    allowed: ADMIN,
  },
  {
    area: "Policies",
    what: "Set an auto-shutdown policy",
    action: `${org}/settings/auto-shutdown/actions.ts#savePolicyAction`,
    api: "PUT /api/v1/orgs/[org]/auto-shutdown/policies",
    allowed: ADMIN,
  },
  {
    area: "Policies",
    what: "Delete an auto-shutdown policy",
    action: `${org}/settings/auto-shutdown/actions.ts#deletePolicyAction`,
    api: "DELETE /api/v1/orgs/[org]/auto-shutdown/policies/[id]",
    allowed: ADMIN,
  },
  {
    area: "Instances",
    what: "Launch above the default priority",
    action: `${org}/instances/new/actions.ts#launchInstanceAction`,
    api: "POST /api/v1/orgs/[org]/instances",
    allowed: ADMIN,
    narrower: "a priority above the default is for admins and owners (lib/provisioning launch)",
    refusals: { viewer: "forbidden", member: "field" },
    actionCall: (o) => {
      const spec = notebookSpec(o.fleet.region, { priority: "50" }) as Record<string, string>;
      return { args: [null, form(spec)] };
    },
    apiCall: (fx) => ({ body: notebookSpec(fx.fleet.region, { priority: 50 }) }),
  },

  // API tokens (console only: a leaked token cannot mint more).
  {
    area: "API tokens",
    what: "Create an API token",
    action: `${org}/settings/tokens/actions.ts#createTokenAction`,
    allowed: MEMBER,
  },
  {
    area: "API tokens",
    what: "Revoke someone else's API token",
    action: `${org}/settings/tokens/actions.ts#revokeTokenAction`,
    allowed: ADMIN,
    narrower: "below admin only your own tokens are visible (lib/tenancy api-tokens): another's is a 404",
    refusals: { viewer: "not-found", member: "not-found" },
    actionCall: async (o) => {
      const ctx = await o.as("member");
      const { token } = await createApiToken(ctx, o.slug, { name: "someone else's" });
      return { args: [null, form({ tokenId: token.id })], ids: true };
    },
  },

  // Webhooks.
  {
    area: "Webhooks",
    what: "Add a webhook endpoint",
    action: `${org}/settings/webhooks/actions.ts#createWebhookAction`,
    api: "POST /api/v1/orgs/[org]/webhooks",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "List webhook endpoints",
    api: "GET /api/v1/orgs/[org]/webhooks",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Read a webhook endpoint",
    api: "GET /api/v1/orgs/[org]/webhooks/[id]",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Pause or resume an endpoint",
    action: `${org}/settings/webhooks/actions.ts#setWebhookEnabledAction`,
    api: "PATCH /api/v1/orgs/[org]/webhooks/[id]",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Delete an endpoint",
    action: `${org}/settings/webhooks/actions.ts#deleteWebhookAction`,
    api: "DELETE /api/v1/orgs/[org]/webhooks/[id]",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Send a test event",
    action: `${org}/settings/webhooks/actions.ts#sendTestWebhookAction`,
    api: "POST /api/v1/orgs/[org]/webhooks/[id]/test",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Read an endpoint's deliveries",
    api: "GET /api/v1/orgs/[org]/webhooks/[id]/deliveries",
    allowed: ADMIN,
  },
  {
    area: "Webhooks",
    what: "Resend a delivery",
    action: `${org}/settings/webhooks/actions.ts#resendWebhookAction`,
    api: "POST /api/v1/orgs/[org]/webhooks/[id]/deliveries/[deliveryId]/resend",
    allowed: ADMIN,
  },

  // Inference services (members run them).
  {
    area: "Services",
    what: "Create an inference service",
    action: `${org}/services/actions.ts#createServiceAction`,
    api: "POST /api/v1/orgs/[org]/services",
    allowed: MEMBER,
  },
  {
    area: "Services",
    what: "Change a service's scaling",
    action: `${org}/services/actions.ts#updateServiceScalingAction`,
    api: "PATCH /api/v1/orgs/[org]/services/[id]",
    allowed: MEMBER,
  },
  {
    area: "Services",
    what: "Delete a service",
    action: `${org}/services/actions.ts#deleteServiceAction`,
    api: "DELETE /api/v1/orgs/[org]/services/[id]",
    allowed: MEMBER,
  },
];

/**
 * Entry points at admin, owner or operator level that no row needs to name, and why (everything else at those
 * levels must be in the matrix).
 */
export const NOT_IN_MATRIX: Record<string, string> = {
  "GET /api/v1/orgs/[org]/instances/[id]/manifests":
    "a Kubernetes instance's manifests; the sweep's simulated instance has none (409), so its admin gate is checked by the API sweep from below and by lib/provisioning's Kubernetes tests",
};

const MARK: Record<Refusal | "allowed", string> = {
  allowed: "✓",
  forbidden: "403",
  "not-found": "404",
  field: "422",
};

/** The refusal a caller outside row.allowed gets. */
export function refusalFor(row: MatrixRow, who: Caller): Refusal {
  const own = row.refusals?.[who];
  if (own) return own;
  if (row.allowed.includes("operator")) return "forbidden";
  return who === "operator" || who === "other-admin" ? "not-found" : "forbidden";
}

/** The matrix as the Markdown table of docs/roles.md. */
export function matrixMarkdown(): string {
  const head = [
    "| Area | Action | Server action | API | viewer | member | admin | owner | operator | another org's admin |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const cell = (row: MatrixRow, who: Caller) =>
    row.allowed.includes(who) ? MARK.allowed : MARK[refusalFor(row, who)];
  const lines = MATRIX.map((row) => {
    const action = row.action ? `\`${(row.action.split("#")[1] ?? "").replace(/Action$/, "")}\`` : "";
    const api = row.api ? `\`${row.api.replace("/api/v1", "")}\`` : "";
    const what = row.narrower ? `${row.what} ¹` : row.what;
    return `| ${row.area} | ${what} | ${action} | ${api} | ${CALLERS.map((c) => cell(row, c)).join(" | ")} |`;
  });
  return [...head, ...lines].join("\n");
}
