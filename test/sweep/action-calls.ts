import { randomUUID } from "node:crypto";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { OrgRole } from "@/lib/access";
import { setAutoShutdownPolicy } from "@/lib/autoshutdown";
import { createBudget } from "@/lib/budgets";
import { schedulePriceChange } from "@/lib/catalog";
import type { Ctx, UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { memberships } from "@/lib/db/schema";
import { createWebhookEndpoint, sendTestWebhook } from "@/lib/notify";
import { launch, suspendOrganization } from "@/lib/provisioning";
import { bigQuota, newFleet, notebookSpec, type TestFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createCohort, createQuotaRequest, setCohortMember } from "@/lib/quotas";
import { createService } from "@/lib/services";
import { createApiToken, inviteMember } from "@/lib/tenancy";
import { uniqueEmail } from "../factories";

/**
 * How the action sweep calls each server action: a valid call, so that a missing gate would write (and the
 * digest would show it), and so the least allowed role gets through. A new action fails the sweep until it
 * has an entry here and in access.ts.
 */
export type ActionOrg = {
  slug: string;
  orgId: string;
  projectId: string;
  fleet: TestFleet;
  owner: Ctx;
  operator: Ctx;
  /** The user id of this organization's member with each role. */
  userIds: Record<OrgRole, string>;
  /** One more member: the one whose role is changed or who is removed (not the caller: leaving is allowed). */
  target: { userId: string; email: string };
  /** A signed-in user with a proven address who is not a member. */
  invitee: { userId: string; email: string };
  /** Adds a member of this role and hands out their context (a fresh target, a second owner). */
  as: (role: OrgRole) => Promise<Ctx & { actor: UserActor }>;
};

export type ActionCall = {
  /** The arguments after the organization's slug (org actions), or all of them (admin and public actions). */
  args: unknown[];
  /** The call names rows of this organization by id: another tenant's owner is also tried under their own slug. */
  ids?: boolean;
  /** Rows outside every organization's digest that a refused call must not change either. */
  watch?: SQL;
  /** Refusals are reported per item in the result's data (bulk actions), not as the action's error. */
  perItem?: boolean;
  /**
   * Why the least allowed caller's valid call still does not succeed (then only "it got past the gate" is
   * checked): e.g. a public action called with an empty form.
   */
  notOk?: string;
  /** The least allowed caller, when it is not the organization's member of that role (an invitee). */
  leastUserId?: string;
};

export function form(values: Record<string, string | string[]> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) fd.append(k, one);
  return fd;
}

async function webhookOf(o: ActionOrg): Promise<string> {
  const { endpoint } = await createWebhookEndpoint(o.owner, o.slug, {
    url: "https://hooks.example.com/sweep",
    events: ["instance.state_changed"],
  });
  return endpoint.id;
}

async function instanceOf(o: ActionOrg): Promise<string> {
  await bigQuota(o.orgId, o.fleet.region);
  const { instance } = await launch(o.owner, o.slug, notebookSpec(o.fleet.region));
  return instance.id;
}

/** A token of the viewer's own (viewers cannot make one: made while a member, as a demoted user keeps it). */
async function viewerToken(o: ActionOrg): Promise<string> {
  const userId = o.userIds.viewer;
  const where = and(eq(memberships.orgId, o.orgId), eq(memberships.userId, userId));
  await getDb().update(memberships).set({ role: "member" }).where(where);
  const actor = { kind: "user" as const, userId, email: "viewer@example.test", isOperator: false };
  const { token } = await createApiToken({ actor }, o.slug, { name: "viewer's" });
  await getDb().update(memberships).set({ role: "viewer" }).where(where);
  return token.id;
}

const budgetForm = () =>
  form({
    name: `Sweep budget ${randomUUID().slice(0, 6)}`,
    project: "",
    amountUsd: "100",
    thresholdKind: ["actual"],
    thresholdPct: ["80"],
    actionAt100: "notify",
  });
const serviceForm = (o: ActionOrg) => ({
  name: `sweep-${randomUUID().slice(0, 6)}`,
  image: "pytorch-2.5-cuda12.4",
  instanceType: "h100.1x",
  region: o.fleet.region,
  minReplicas: "0",
  maxReplicas: "2",
});
async function serviceOf(o: ActionOrg): Promise<string> {
  const { service } = await createService(o.owner, o.slug, {
    ...serviceForm(o),
    minReplicas: 0,
    maxReplicas: 2,
  });
  return service.id;
}
const quotaKey = (o: ActionOrg) => ({ gpuModelId: "h100", regionCode: o.fleet.region });
const reservationForm = (o: ActionOrg) =>
  form({ ...quotaKey(o), gpuCount: "1", term: "reserved_1m", idempotencyKey: randomUUID() });
const levels = { nominalGpus: "2", borrowingLimitGpus: "0", lendingLimitGpus: "0" };

const empty = "called with an empty form: refused by its own validation";
type Recipe = (o: ActionOrg) => ActionCall | Promise<ActionCall>;
const org = "(console)/[org]";

export const ACTION_CALLS: Record<string, Recipe> = {
  // Public: reachable signed out (called with an empty form: nothing to create).
  "(auth)/actions.ts#signUpAction": () => ({ args: [null, form()], notOk: empty }),
  "(auth)/actions.ts#signInAction": () => ({ args: [null, form()], notOk: empty }),
  "(auth)/account-actions.ts#requestResetAction": () => ({ args: [null, form()], notOk: empty }),
  "(auth)/account-actions.ts#resetPasswordAction": () => ({
    args: ["no-such-token", null, form()],
    notOk: empty,
  }),
  "(auth)/account-actions.ts#verifyEmailAction": () => ({
    args: ["no-such-token", null, form()],
    notOk: empty,
  }),
  "invite/[token]/actions.ts#joinWithInvitationAction": () => ({
    args: ["no-such-token", null, form()],
    notOk: empty,
  }),
  "@/components/shell/preferences-actions.ts#setLocaleAction": () => ({
    args: ["es"],
    notOk: "returns nothing",
  }),
  // Signed in: the invitee (a signed-in user who is not yet a member) accepts a real invitation.
  "invite/[token]/actions.ts#acceptInvitationAction": async (o) => {
    const { token } = await inviteMember(o.owner, o.slug, { email: o.invitee.email, role: "member" });
    return { args: [token, null, form()], leastUserId: o.invitee.userId };
  },

  [`${org}/budgets/actions.ts#createBudgetAction`]: () => ({ args: [null, budgetForm()] }),
  [`${org}/budgets/actions.ts#updateBudgetAction`]: async (o) => {
    const b = await createBudget(o.owner, o.slug, {
      name: `Before ${randomUUID().slice(0, 6)}`,
      amountUsd: 5,
    });
    return { args: [b.id, null, budgetForm()], ids: true };
  },
  [`${org}/budgets/actions.ts#deleteBudgetAction`]: async (o) => {
    const b = await createBudget(o.owner, o.slug, {
      name: `Doomed ${randomUUID().slice(0, 6)}`,
      amountUsd: 5,
    });
    return { args: [b.id, null, form()], ids: true };
  },
  [`${org}/instances/actions.ts#instanceAction`]: async (o) => ({
    args: [{ action: "cancel", id: await instanceOf(o) }],
    ids: true,
  }),
  [`${org}/instances/actions.ts#stopInstancesAction`]: async (o) => ({
    args: [{ ids: [await instanceOf(o)] }],
    ids: true,
    perItem: true,
  }),
  [`${org}/instances/[id]/actions.ts#snoozeShutdownAction`]: async (o) => ({
    args: [await instanceOf(o), null, form({ minutes: "30" })],
    ids: true,
    // Past the gate, snooze finds no pending warning on a fresh instance (the snooze itself: snooze-race.test.ts).
    notOk: "no automatic shutdown is pending",
  }),
  [`${org}/instances/new/actions.ts#launchInstanceAction`]: async (o) => {
    await bigQuota(o.orgId, o.fleet.region);
    return { args: [null, form(notebookSpec(o.fleet.region) as Record<string, string>)] };
  },
  [`${org}/notifications/actions.ts#markReadAction`]: () => ({ args: [null, form({ all: "1" })] }),
  [`${org}/services/actions.ts#createServiceAction`]: (o) => ({ args: [null, form(serviceForm(o))] }),
  [`${org}/services/actions.ts#updateServiceScalingAction`]: async (o) => ({
    args: [await serviceOf(o), null, form({ maxReplicas: "3" })],
    ids: true,
  }),
  [`${org}/services/actions.ts#setServiceAuthAction`]: async (o) => ({
    args: [await serviceOf(o), null, form({ auth: "public" })],
    ids: true,
  }),
  [`${org}/services/actions.ts#deleteServiceAction`]: async (o) => ({
    args: [await serviceOf(o), null, form()],
    ids: true,
  }),
  [`${org}/settings/actions.ts#renameOrganizationAction`]: () => ({
    args: [null, form({ name: "Renamed by the sweep" })],
  }),
  [`${org}/settings/actions.ts#setDataResidencyAction`]: () => ({
    args: [null, form({ jurisdictions: ["EU"] })],
  }),
  [`${org}/settings/actions.ts#leaveOrganizationAction`]: () => ({ args: [null, form()] }),
  [`${org}/settings/auto-shutdown/actions.ts#savePolicyAction`]: () => ({
    args: [
      null,
      form({
        project: "",
        gpuModelId: "",
        defaultIdlePct: "5",
        defaultIdleMinutes: "30",
        idleMinutesMax: "60",
        idlePctMin: "1",
        defaultMaxRuntimeMinutes: "600",
        maxRuntimeMinutesMax: "1200",
        snoozeMinutesMax: "60",
        maxSnoozes: "3",
        warningMinutes: "10",
        allowSnooze: "on",
      }),
    ],
  }),
  [`${org}/settings/auto-shutdown/actions.ts#deletePolicyAction`]: async (o) => {
    const p = await setAutoShutdownPolicy(o.owner, o.slug, { idleMinutesMax: 60 });
    return { args: [p.id, null, form()], ids: true };
  },
  [`${org}/settings/members/actions.ts#inviteMemberAction`]: () => ({
    args: [null, form({ email: uniqueEmail("sweep"), role: "member" })],
  }),
  [`${org}/settings/members/actions.ts#resendInvitationAction`]: async (o) => {
    const { invitation } = await inviteMember(o.owner, o.slug, { email: uniqueEmail("re"), role: "member" });
    return { args: [null, form({ invitationId: invitation.id })], ids: true };
  },
  [`${org}/settings/members/actions.ts#revokeInvitationAction`]: async (o) => {
    const { invitation } = await inviteMember(o.owner, o.slug, { email: uniqueEmail("rv"), role: "member" });
    return { args: [null, form({ invitationId: invitation.id })], ids: true };
  },
  [`${org}/settings/members/actions.ts#changeRoleAction`]: (o) => ({
    args: [null, form({ userId: o.target.userId, role: "viewer" })],
    ids: true,
  }),
  [`${org}/settings/members/actions.ts#removeMemberAction`]: (o) => ({
    args: [null, form({ userId: o.target.userId })],
    ids: true,
  }),
  [`${org}/settings/projects/actions.ts#createProjectAction`]: () => ({
    args: [null, form({ name: "Sweep project", slug: "sweep-project", environment: "development" })],
  }),
  [`${org}/settings/projects/actions.ts#updateProjectAction`]: (o) => ({
    args: [null, form({ projectId: o.projectId, name: "Renamed project", environment: "staging" })],
    ids: true,
  }),
  [`${org}/settings/tokens/actions.ts#createTokenAction`]: () => ({
    args: [null, form({ name: "sweep token", expiresInDays: "30", scope: "write" })],
  }),
  [`${org}/settings/tokens/actions.ts#revokeTokenAction`]: async (o) => ({
    args: [null, form({ tokenId: await viewerToken(o) })],
    ids: true,
  }),
  [`${org}/settings/webhooks/actions.ts#createWebhookAction`]: () => ({
    args: [null, form({ url: "https://hooks.example.com/sweep", events: ["instance.state_changed"] })],
  }),
  [`${org}/settings/webhooks/actions.ts#setWebhookEnabledAction`]: async (o) => ({
    args: [null, form({ id: await webhookOf(o), enabled: "false" })],
    ids: true,
  }),
  [`${org}/settings/webhooks/actions.ts#deleteWebhookAction`]: async (o) => ({
    args: [null, form({ id: await webhookOf(o) })],
    ids: true,
  }),
  [`${org}/settings/webhooks/actions.ts#sendTestWebhookAction`]: async (o) => ({
    args: [null, form({ id: await webhookOf(o) })],
    ids: true,
  }),
  [`${org}/settings/webhooks/actions.ts#resendWebhookAction`]: async (o) => {
    const { deliveryId } = await sendTestWebhook(o.owner, o.slug, await webhookOf(o));
    return { args: [null, form({ deliveryId })], ids: true };
  },
  [`${org}/quotas/actions.ts#requestQuotaAction`]: (o) => ({
    args: [null, form({ ...quotaKey(o), requestedGpus: "64", until: "", reason: "Sweep" })],
  }),
  [`${org}/quotas/actions.ts#setProjectShareAction`]: (o) => ({
    args: [null, form({ project: "default", ...quotaKey(o), shareGpus: "1" })],
  }),
  [`${org}/quotas/actions.ts#setQuotaPolicyAction`]: () => ({
    args: [null, form({ preemptLowerPriority: "on" })],
  }),
  [`${org}/usage/reservations/actions.ts#quoteReservationAction`]: (o) => ({
    args: [null, reservationForm(o)],
  }),
  [`${org}/usage/reservations/actions.ts#purchaseReservationAction`]: (o) => ({
    args: [null, reservationForm(o)],
  }),

  // Operator actions aimed at this organization (a write would show in its digest) or at rows watched.
  "admin/quotas/actions.ts#setOrgQuotaAction": (o) => ({
    args: [null, form({ orgId: o.orgId, ...quotaKey(o), ...levels })],
  }),
  "admin/quotas/actions.ts#setQuotaDefaultAction": (o) => ({
    args: [null, form({ ...quotaKey(o), ...levels })],
    watch: sql`select coalesce(string_agg(to_jsonb(d)::text, '|'), '') as v from quota_defaults d where region_code = ${o.fleet.region}`,
  }),
  "admin/quotas/actions.ts#createCohortAction": () => {
    const name = `Sweep cohort ${randomUUID().slice(0, 8)}`;
    return {
      args: [null, form({ name, description: "" })],
      watch: sql`select count(*)::text as v from cohorts where name = ${name}`,
    };
  },
  "admin/quotas/actions.ts#setCohortMemberAction": async (o) => {
    const cohort = await createCohort(o.operator, {
      name: `Sweep ${randomUUID().slice(0, 8)}`,
      description: "",
    });
    return { args: [null, form({ cohortId: cohort.id, orgId: o.orgId, weight: "1" })] };
  },
  "admin/quotas/actions.ts#removeCohortMemberAction": async (o) => {
    const cohort = await createCohort(o.operator, {
      name: `Sweep ${randomUUID().slice(0, 8)}`,
      description: "",
    });
    await setCohortMember(o.operator, { cohortId: cohort.id, orgId: o.orgId, weight: 1 });
    return { args: [null, form({ orgId: o.orgId })] };
  },
  "admin/quota-requests/actions.ts#decideQuotaRequestAction": async (o) => {
    const req = await createQuotaRequest(o.owner, o.slug, {
      ...quotaKey(o),
      requestedGpus: 64,
      reason: "Sweep",
    });
    return { args: [null, form({ requestId: req.id, decision: "deny", grantedGpus: "", message: "No" })] };
  },
  "admin/tenants/[org]/actions.ts#suspendTenantAction": (o) => ({
    args: [null, form({ org: o.slug, reason: "Sweep", noticeMinutes: "0" })],
  }),
  "admin/tenants/[org]/actions.ts#reactivateTenantAction": async (o) => {
    await suspendOrganization(o.operator, { org: o.slug, reason: "Sweep", noticeMinutes: 0 });
    return { args: [null, form({ org: o.slug })] };
  },

  // Fleet actions touch no organization's rows: the node (or its name) is watched.
  "admin/fleet/actions.ts#addNodeAction": (o) => {
    const name = `sweep-${randomUUID().slice(0, 8)}`;
    const node = {
      name,
      regionCode: o.fleet.region,
      gpuModelId: "h100",
      gpuCount: "1",
      vcpus: "8",
      ramGib: "64",
    };
    return {
      args: [null, form({ ...node, migGpus: "0" })],
      watch: sql`select count(*)::text as v from nodes where name = ${name}`,
    };
  },
  "admin/fleet/actions.ts#drainNodeAction": () => nodeVerbCall("active"),
  "admin/fleet/actions.ts#failNodeAction": () => nodeVerbCall("active"),
  "admin/fleet/actions.ts#activateNodeAction": () => nodeVerbCall("draining"),
  "admin/fleet/actions.ts#setMigLayoutAction": async () => {
    const fleet = await newFleet([{ gpus: 1 }]);
    const nodeId = (fleet.nodes[0] as { id: string }).id;
    return {
      args: [null, form({ nodeId, migGpu: "0" })],
      watch: sql`select mig_enabled::text as v from node_gpus where node_id = ${nodeId}`,
    };
  },

  // Price actions touch no organization's rows: the region's price rows are watched.
  "admin/prices/actions.ts#schedulePriceAction": (o) => ({
    args: [null, form({ ...priceChange(o), usdPerHour: "3.1" })],
    watch: sql`select count(*)::text as v from prices where region_code = ${o.fleet.region}`,
  }),
  "admin/prices/actions.ts#cancelPriceAction": async (o) => {
    const change = await schedulePriceChange(o.operator, { ...priceChange(o), usdPerHour: 3.2 });
    return {
      args: [null, form({ priceId: change.id })],
      watch: sql`select count(*)::text as v from prices where id = ${change.id}`,
    };
  },
};

/** A change of the fleet's h100.1x on-demand price at a time of its own (a taken time is a conflict). */
export function priceChange(o: { fleet: { region: string } }) {
  const at = new Date(Date.now() + 86_400_000 * (1 + Math.floor(Math.random() * 10_000)));
  return {
    instanceTypeId: "h100.1x",
    regionCode: o.fleet.region,
    pricingModel: "on_demand",
    effectiveFrom: at.toISOString(),
  };
}

/** A node of its own (one GPU, in a region of its own) for a drain, failure or return to service. */
async function nodeVerbCall(status: "active" | "draining"): Promise<ActionCall> {
  const fleet = await newFleet([{ gpus: 1, status }]);
  const nodeId = (fleet.nodes[0] as { id: string }).id;
  return {
    args: [null, form({ nodeId, reason: "Sweep" })],
    watch: sql`select status::text as v from nodes where id = ${nodeId}`,
  };
}
