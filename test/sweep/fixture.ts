import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { setAutoShutdownPolicy } from "@/lib/autoshutdown";
import { createBudget } from "@/lib/budgets";
import { getDb } from "@/lib/db/client";
import { apiTokens, memberships, users } from "@/lib/db/schema";
import { createWebhookEndpoint } from "@/lib/notify";
import { launch } from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { createService } from "@/lib/services";
import { createApiToken, createProject, inviteMember, revokeApiToken } from "@/lib/tenancy";
import type { OrgLevel } from "./access";

/**
 * Two organizations for the sweeps: A with a user of every role (each with an API token) and an instance,
 * B with its owner (another tenant). Tokens are made while the user is a member (viewers cannot make
 * tokens) and the role is set afterwards: a token acts with its user's current role.
 */
export async function sweepFixture() {
  const fleet = await newFleet([{ gpus: 8 }]);
  const a = await newOrg("sweep-a");
  const b = await newOrg("sweep-b");
  await bigQuota(a.org.id, fleet.region);
  const tokens = {} as Record<OrgLevel, string>;
  const userIds = {} as Record<OrgLevel, string>;
  tokens.owner = (await createApiToken(a.ctx, a.slug, { name: "sweep" })).secret;
  userIds.owner = a.user.id;
  for (const role of ["admin", "member", "viewer"] as const) {
    const ctx = await a.as("member");
    tokens[role] = (await createApiToken(ctx, a.slug, { name: "sweep" })).secret;
    if (ctx.actor.kind !== "user") throw new Error("unreachable");
    userIds[role] = ctx.actor.userId;
    await getDb()
      .update(memberships)
      .set({ role })
      .where(sql`${memberships.orgId} = ${a.org.id} and ${memberships.userId} = ${ctx.actor.userId}`);
  }
  const otherOwner = (await createApiToken(b.ctx, b.slug, { name: "sweep" })).secret;
  // An operator (platform admin) with a token of its own organization, for operator-only routes.
  const op = await newOrg("sweep-op");
  await getDb().update(users).set({ isOperator: true }).where(eq(users.id, op.user.id));
  const operator = (await createApiToken(op.ctx, op.slug, { name: "sweep" })).secret;
  // Tokens that must never get in or must be held to their scope: the owner's revoked, expired and read-only
  // tokens, and the operator's admin-scope token (the only kind that reaches /api/v1/admin) and read token.
  const revoked = await createApiToken(a.ctx, a.slug, { name: "sweep revoked" });
  await revokeApiToken(a.ctx, a.slug, { tokenId: revoked.token.id });
  const expiring = await createApiToken(a.ctx, a.slug, { name: "sweep expired", expiresInDays: 1 });
  await getDb()
    .update(apiTokens)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(apiTokens.id, expiring.token.id));
  const scoped = {
    revoked: revoked.secret,
    expired: expiring.secret,
    ownerRead: (await createApiToken(a.ctx, a.slug, { name: "sweep read", scope: "read" })).secret,
    // Minted as the signed-in operator would (an admin token needs the operator's own session).
    operatorAdmin: (
      await createApiToken({ ...op.ctx, actor: { ...op.actor, isOperator: true } }, op.slug, {
        name: "sweep admin",
        scope: "admin",
      })
    ).secret,
    operatorRead: (await createApiToken(op.ctx, op.slug, { name: "sweep op read", scope: "read" })).secret,
  };

  async function newInstance(): Promise<string> {
    const { instance } = await launch(a.ctx, a.slug, notebookSpec(fleet.region));
    return instance.id;
  }
  let budgets = 0;
  let projectCount = 0;
  const newProject = () =>
    createProject(a.ctx, a.slug, { name: `Sweep ${++projectCount}`, environment: "development" });
  /** An id of the resource a route pattern names (a webhook endpoint, member, invitation, policy, budget), else an instance. */
  async function newIdFor(pattern: string): Promise<string> {
    if (pattern.includes("/webhooks/")) {
      const { endpoint } = await createWebhookEndpoint(a.ctx, a.slug, {
        url: "https://hooks.example.com/sweep",
        events: ["instance.state_changed"],
      });
      return endpoint.id;
    }
    if (pattern.includes("/members/")) {
      const ctx = await a.as("member");
      if (ctx.actor.kind !== "user") throw new Error("unreachable");
      return ctx.actor.userId;
    }
    if (pattern.includes("/invitations/")) {
      const email = `sweep-${randomUUID().slice(0, 8)}@example.test`;
      return (await inviteMember(a.ctx, a.slug, { email, role: "member" })).invitation.id;
    }
    if (pattern.includes("/policies/")) {
      return (await setAutoShutdownPolicy(a.ctx, a.slug, { project: (await newProject()).slug })).id;
    }
    if (pattern.includes("/services/")) {
      const { service } = await createService(a.ctx, a.slug, {
        name: `sweep-${randomUUID().slice(0, 8)}`,
        image: "pytorch-2.5-cuda12.4",
        instanceType: "h100.1x",
        region: fleet.region,
      });
      return service.id;
    }
    if (!pattern.includes("/budgets/")) return newInstance();
    const budget = await createBudget(a.ctx, a.slug, { name: `sweep ${++budgets}`, amountUsd: 100 });
    return budget.id;
  }
  // A write token never carries operator powers (only an admin-scope one does), nor does the session sweep's.
  const operatorActor = { ...op.actor, isOperator: true };
  return {
    fleet,
    a,
    b,
    op,
    tokens,
    userIds,
    otherOwner,
    operator,
    operatorActor,
    scoped,
    newInstance,
    newIdFor,
  };
}

export type SweepFixture = Awaited<ReturnType<typeof sweepFixture>>;

/**
 * A digest of everything organization `orgId` owns: every row of every table with an org_id column (and the
 * organization row), so "changed nothing" is checked across the whole schema, new tables included. Token
 * last-use times are left out: authenticating a call records them by design.
 */
export async function tenantDigest(orgId: string): Promise<string> {
  const db = getDb();
  if (!digestTables) {
    // Each table with an org_id, and whether it is reached faster through its instances: the metric tables
    // (hundreds of thousands of rows by the end of a full run) are indexed by instance, not organization, and
    // a scan of them after every fuzz case made the fuzz file the slowest of the suite.
    const tables = await db.execute<{ table_name: string; by_instance: boolean; nullable: boolean }>(sql`
      select c.table_name,
        exists (select 1 from information_schema.columns i
                where i.table_schema = 'public' and i.table_name = c.table_name and i.column_name = 'instance_id'
                  and i.is_nullable = 'YES') as nullable,
        exists (select 1 from information_schema.columns i
                where i.table_schema = 'public' and i.table_name = c.table_name and i.column_name = 'instance_id')
        and not exists (select 1 from pg_index x join pg_class t on t.oid = x.indrelid
                        join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
                        where t.relname = c.table_name and a.attname = 'org_id') as by_instance
      from information_schema.columns c join information_schema.tables tb
        on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and c.column_name = 'org_id' order by c.table_name`);
    digestTables = tables.rows.map((r) => ({
      name: r.table_name,
      byInstance: r.by_instance,
      nullable: r.nullable,
    }));
  }
  // One round trip: a digest per table, joined (cheap enough to run after every fuzz case). Left out: a
  // token's last use, and instance_events.metering_seen, which the metering pass (lib/metering/meter.ts) sets
  // for every organization's new events at once — another test file's pass, not the request under test. A
  // table reached through its instances also counts its rows of no instance where instance_id may be null.
  const row = (t: DigestTable) => {
    const of = sql`x.instance_id = any(array(select id from instances where org_id = ${orgId}))`;
    const where = !t.byInstance
      ? sql`x.org_id = ${orgId}`
      : t.nullable
        ? sql`(${of} or x.instance_id is null) and x.org_id = ${orgId}`
        : sql`${of} and x.org_id = ${orgId}`;
    return sql`(select ${t.name} || ':' || md5(coalesce(string_agg(j, '|' order by j), '')) from (select (to_jsonb(x) - 'last_used_at' - 'metering_seen')::text as j from ${sql.identifier(t.name)} x where ${where}) s)`;
  };
  const parts = [
    ...digestTables.map(row),
    sql`(select md5(to_jsonb(o)::text) from organizations o where id = ${orgId})`,
  ];
  const r = await db.execute<{ d: string }>(sql`select concat_ws(E'\n', ${sql.join(parts, sql`, `)}) as d`);
  return r.rows[0]?.d ?? "";
}
type DigestTable = { name: string; byInstance: boolean; nullable: boolean };
let digestTables: DigestTable[] | null = null;

export const randomId = () => randomUUID();
