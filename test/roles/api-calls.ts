import { randomUUID } from "node:crypto";
import { eq, type SQL, sql } from "drizzle-orm";
import { schedulePriceChange } from "@/lib/catalog";
import { getDb } from "@/lib/db/client";
import { webhookEndpoints } from "@/lib/db/schema";
import { sendTestWebhook } from "@/lib/notify";
import { drainNode, reactivateOrganization, suspendOrganization } from "@/lib/provisioning";
import { newFleet } from "@/lib/provisioning/__tests__/fixtures";
import { createCohort, createQuotaRequest, removeCohortMember, setCohortMember } from "@/lib/quotas";
import { inviteMember } from "@/lib/tenancy";
import { uniqueEmail } from "../factories";
import { priceChange } from "../sweep/action-calls";
import type { SweepFixture } from "../sweep/fixture";

/**
 * How the role matrix calls each API route with a valid request (so a missing gate would write, and an allowed
 * caller gets a 2xx): against the API sweep's fixture (organization A with a token per role). Every call makes
 * the rows it acts on, so callers never share one.
 */
export type ApiCall = {
  /** Path parameters besides the organization (A's slug unless given). */
  params?: Record<string, string>;
  body?: unknown;
  query?: string;
  /** Rows outside the organization's digest that a refused call must not change (a node, a cohort). */
  watch?: SQL;
  /** Undo what an allowed call did to organization A (a suspension), whoever called. */
  after?: () => Promise<unknown>;
};
export type ApiRecipe = (fx: SweepFixture) => ApiCall | Promise<ApiCall>;

let n = 0;
const quotaAsk = (fx: SweepFixture) => ({
  gpuModelId: "l40s",
  regionCode: fx.fleet.region,
  // Each request asks for more than the nominal the previous approvals left.
  requestedGpus: 1000 + ++n * 100,
  reason: "Role matrix",
});
const opCtx = (fx: SweepFixture) => ({ actor: fx.operatorActor });
async function request(fx: SweepFixture): Promise<string> {
  return (await createQuotaRequest(fx.a.ctx, fx.a.slug, quotaAsk(fx))).id;
}
async function node(): Promise<ApiCall> {
  const id = (await newFleet([{ gpus: 1 }])).nodes[0]?.id ?? "";
  return {
    params: { id },
    body: { reason: "Role matrix" },
    watch: sql`select status::text as v from nodes where id = ${id}`,
  };
}

/** A fresh cohort (A is put in it or taken out of it; the digest of A sees its membership). */
async function newCohort(fx: SweepFixture): Promise<string> {
  return (await createCohort(opCtx(fx), { name: `Matrix ${randomUUID().slice(0, 8)}` })).id;
}

/** A webhook call, then A's endpoints are removed (an organization holds at most 20). */
function webhook(make: (fx: SweepFixture) => ApiCall | Promise<ApiCall>): ApiRecipe {
  return async (fx) => ({
    ...(await make(fx)),
    after: () => getDb().delete(webhookEndpoints).where(eq(webhookEndpoints.orgId, fx.a.org.id)),
  });
}

/** An open invitation for an owner (only owners may revoke it). */
export async function apiOwnerInvitation(fx: SweepFixture): Promise<string> {
  return (await inviteMember(fx.a.ctx, fx.a.slug, { email: uniqueEmail("own"), role: "owner" })).invitation
    .id;
}
/** One more owner of A (only owners may demote or remove them). */
export async function apiOwnerMember(fx: SweepFixture): Promise<string> {
  const ctx = await fx.a.as("owner");
  return ctx.actor.userId;
}

export const API_CALLS: Record<string, ApiRecipe> = {
  "PUT /api/v1/admin/quotas": (fx) => ({
    // A model the fixture's instances do not use: their quota stays as it is.
    body: {
      orgId: fx.a.org.id,
      gpuModelId: "l4",
      regionCode: fx.fleet.region,
      nominalGpus: 2,
      borrowingLimitGpus: 0,
      lendingLimitGpus: 0,
    },
  }),
  "GET /api/v1/admin/quotas": () => ({}),
  "POST /api/v1/admin/cohorts": () => {
    const name = `Matrix ${randomUUID().slice(0, 8)}`;
    return { body: { name }, watch: sql`select count(*)::text as v from cohorts where name = ${name}` };
  },
  "GET /api/v1/admin/cohorts": () => ({}),
  "PUT /api/v1/admin/quota-defaults": (fx) => ({
    // A model the fixture's instances do not use; a new figure each call, so a missing gate would show.
    body: { gpuModelId: "l4", regionCode: fx.fleet.region, nominalGpus: ++n, borrowingLimitGpus: 0 },
    watch: sql`select coalesce(max(nominal_gpus), -1)::text as v from quota_defaults where gpu_model_id = 'l4' and region_code = ${fx.fleet.region}`,
  }),
  "GET /api/v1/admin/quota-defaults": () => ({}),
  "PUT /api/v1/admin/cohort-members": async (fx) => {
    const cohort = await newCohort(fx);
    return {
      body: { cohortId: cohort, orgId: fx.a.org.id, weight: 2 },
      after: () => removeCohortMember(opCtx(fx), { orgId: fx.a.org.id }).catch(() => undefined),
    };
  },
  "DELETE /api/v1/admin/cohort-members/[orgId]": async (fx) => {
    await setCohortMember(opCtx(fx), { cohortId: await newCohort(fx), orgId: fx.a.org.id, weight: 1 });
    return {
      params: { orgId: fx.a.org.id },
      after: () => removeCohortMember(opCtx(fx), { orgId: fx.a.org.id }).catch(() => undefined),
    };
  },
  "GET /api/v1/admin/capacity-plan": () => ({}),
  "POST /api/v1/orgs/[org]/quota-requests": (fx) => ({ body: quotaAsk(fx) }),
  "GET /api/v1/admin/quota-requests": () => ({}),
  "POST /api/v1/admin/quota-requests/[id]/deny": async (fx) => ({
    params: { id: await request(fx) },
    body: { message: "No" },
  }),
  "POST /api/v1/admin/quota-requests/[id]/approve": async (fx) => ({ params: { id: await request(fx) } }),
  "POST /api/v1/admin/tenants/[org]/suspend": (fx) => ({
    body: { reason: "Role matrix", noticeMinutes: 0 },
    after: () => reactivateOrganization(opCtx(fx), { org: fx.a.slug }).catch(() => undefined),
  }),
  "POST /api/v1/admin/tenants/[org]/reactivate": async (fx) => {
    await suspendOrganization(opCtx(fx), { org: fx.a.slug, reason: "Role matrix", noticeMinutes: 0 });
    return { after: () => reactivateOrganization(opCtx(fx), { org: fx.a.slug }).catch(() => undefined) };
  },
  "GET /api/v1/admin/nodes": () => ({}),
  "POST /api/v1/admin/nodes": async () => {
    const name = `matrix-${randomUUID().slice(0, 8)}`;
    const { region } = await newFleet([]);
    return {
      body: { name, regionCode: region, gpuModelId: "h100", gpuCount: 1, vcpus: 8, ramGib: 64 },
      watch: sql`select count(*)::text as v from nodes where name = ${name}`,
    };
  },
  "POST /api/v1/admin/nodes/[id]/drain": node,
  "POST /api/v1/admin/nodes/[id]/fail": node,
  "POST /api/v1/admin/nodes/[id]/activate": async (fx) => {
    const call = await node();
    await drainNode(opCtx(fx), call.params?.id ?? "");
    return call;
  },
  "PUT /api/v1/admin/nodes/[id]/mig-layout": async () => {
    const id = (await newFleet([{ gpus: 1 }])).nodes[0]?.id ?? "";
    return {
      params: { id },
      body: { migGpus: [0] },
      watch: sql`select mig_enabled::text as v from node_gpus where node_id = ${id}`,
    };
  },
  "GET /api/v1/admin/prices": () => ({}),
  "POST /api/v1/admin/prices": (fx) => ({
    body: { ...priceChange(fx), usdPerHour: 3.1 },
    watch: sql`select count(*)::text as v from prices where region_code = ${fx.fleet.region}`,
  }),
  "DELETE /api/v1/admin/prices/[id]": async (fx) => {
    const change = await schedulePriceChange(opCtx(fx), { ...priceChange(fx), usdPerHour: 3.2 });
    return {
      params: { id: change.id },
      watch: sql`select count(*)::text as v from prices where id = ${change.id}`,
    };
  },
  "GET /api/v1/admin/audit/export": (fx) => ({ query: `org=${fx.a.slug}` }),

  "POST /api/v1/orgs/[org]/invitations": () => ({ body: { email: uniqueEmail("inv"), role: "member" } }),
  "GET /api/v1/orgs/[org]/invitations": () => ({}),
  "DELETE /api/v1/orgs/[org]/invitations/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/invitations/") },
  }),
  "PUT /api/v1/orgs/[org]/members/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/members/") },
    body: { role: "viewer" },
  }),
  "DELETE /api/v1/orgs/[org]/members/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/members/") },
  }),
  "POST /api/v1/orgs/[org]/projects": () => ({
    body: { name: `Matrix ${randomUUID().slice(0, 6)}`, environment: "development" },
  }),
  "POST /api/v1/orgs/[org]/budgets": () => ({
    body: { name: `Matrix ${randomUUID().slice(0, 6)}`, amountUsd: 100 },
  }),
  "PUT /api/v1/orgs/[org]/budgets/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/budgets/") },
    body: { name: `Matrix ${randomUUID().slice(0, 6)}`, amountUsd: 50 },
  }),
  "DELETE /api/v1/orgs/[org]/budgets/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/budgets/") },
  }),
  "POST /api/v1/orgs/[org]/usage/reservations": (fx) => ({
    body: {
      gpuModelId: "h100",
      regionCode: fx.fleet.region,
      gpuCount: 1,
      term: "reserved_1m",
      idempotencyKey: randomUUID(),
    },
  }),
  "PUT /api/v1/orgs/[org]/auto-shutdown/policies": () => ({ body: { idleMinutesMax: 60 } }),
  "DELETE /api/v1/orgs/[org]/auto-shutdown/policies/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/policies/") },
  }),
  "POST /api/v1/orgs/[org]/webhooks": webhook(() => ({
    body: { url: "https://hooks.example.com/matrix", events: ["instance.state_changed"] },
  })),
  "GET /api/v1/orgs/[org]/webhooks": webhook(() => ({})),
  "GET /api/v1/orgs/[org]/webhooks/[id]": webhook(async (fx) => ({
    params: { id: await fx.newIdFor("/webhooks/") },
  })),
  "PATCH /api/v1/orgs/[org]/webhooks/[id]": webhook(async (fx) => ({
    params: { id: await fx.newIdFor("/webhooks/") },
    body: { enabled: false },
  })),
  "DELETE /api/v1/orgs/[org]/webhooks/[id]": webhook(async (fx) => ({
    params: { id: await fx.newIdFor("/webhooks/") },
  })),
  "POST /api/v1/orgs/[org]/webhooks/[id]/test": webhook(async (fx) => ({
    params: { id: await fx.newIdFor("/webhooks/") },
  })),
  "GET /api/v1/orgs/[org]/webhooks/[id]/deliveries": webhook(async (fx) => ({
    params: { id: await fx.newIdFor("/webhooks/") },
  })),
  "POST /api/v1/orgs/[org]/webhooks/[id]/deliveries/[deliveryId]/resend": webhook(async (fx) => {
    const id = await fx.newIdFor("/webhooks/");
    const { deliveryId } = await sendTestWebhook(fx.a.ctx, fx.a.slug, id);
    return { params: { id, deliveryId } };
  }),
  "POST /api/v1/orgs/[org]/services": (fx) => ({
    body: {
      name: `matrix-${randomUUID().slice(0, 6)}`,
      image: "pytorch-2.5-cuda12.4",
      instanceType: "h100.1x",
      region: fx.fleet.region,
      minReplicas: 0,
      maxReplicas: 2,
    },
  }),
  "PATCH /api/v1/orgs/[org]/services/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/services/") },
    body: { maxReplicas: 3 },
  }),
  "DELETE /api/v1/orgs/[org]/services/[id]": async (fx) => ({
    params: { id: await fx.newIdFor("/services/") },
  }),
};
