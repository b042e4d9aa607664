import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getTenant } from "@/lib/admin";
import { makeUser } from "@/lib/admin/__tests__/fixtures";
import { ConflictError, ForbiddenError, NotFoundError, systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { meterUsage } from "@/lib/metering";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reactivateOrganization,
  reconcileInstances,
  setProvider,
  start,
  suspendOrganization,
} from "@/lib/provisioning";
import { createProject } from "@/lib/tenancy";
import { newFleet, newOrg, notebookSpec, testClock } from "./fixtures";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

type Clock = ReturnType<typeof testClock>;
// Scoped to the test's region: vitest files share one database.
const tick = (clock: Clock, region: string) =>
  placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: region });
const reconcile = (clock: Clock, region: string) =>
  reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: region });

async function row(id: string) {
  const r = await getDb().execute<{
    state: string;
    state_deadline: Date | null;
    state_reason: string | null;
  }>(sql`select state, state_deadline, state_reason from instances where id = ${id}`);
  return r.rows[0];
}
const suspensions = async (orgId: string) =>
  (await getDb().execute(sql`select 1 from org_suspensions where org_id = ${orgId}`)).rows.length;
const audits = async (orgId: string, action: string) =>
  (
    await getDb().execute<{ actor_user_id: string | null; data: Record<string, unknown> }>(
      sql`select actor_user_id, data from audit_log where org_id = ${orgId} and action = ${action}`,
    )
  ).rows;

async function runningInstance() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 8 }]);
  const o = await newOrg("susp", clock);
  const r = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
  await tick(clock, fleet.region);
  clock.advance(11_000);
  await reconcile(clock, fleet.region);
  expect((await row(r.instance.id))?.state).toBe("running");
  const op = await makeUser(getDb(), { isOperator: true, label: "op" });
  return { clock, fleet, o, id: r.instance.id, op: { ...op.ctx, now: clock.now }, opUser: op.user };
}

describe("suspending an organization", () => {
  it("gives running instances the notice, stops them when it ends, and refuses launches with the reason", async () => {
    const { clock, fleet, o, id, op, opUser } = await runningInstance();
    const res = await suspendOrganization(op, { org: o.slug, reason: "unpaid invoices", noticeMinutes: 30 });
    expect(res.noticedInstances).toBe(1);
    const noticed = await row(id);
    expect(noticed?.state).toBe("stopping");
    expect(noticed?.state_reason).toContain("unpaid invoices");
    const ev = await getDb().execute<{ reason_code: string; reason_params: Record<string, string> }>(
      sql`select reason_code, reason_params from instance_events where instance_id = ${id} and to_state = 'stopping'`,
    );
    expect(ev.rows[0]).toMatchObject({
      reason_code: "org_suspended",
      reason_params: { reason: "unpaid invoices" },
    });
    expect(new Date(noticed?.state_deadline as Date).getTime()).toBe(clock.now().getTime() + 30 * 60_000);

    // Not before the notice ends …
    clock.advance(29 * 60_000);
    await reconcile(clock, fleet.region);
    expect((await row(id))?.state).toBe("stopping");
    // … and stopped once it has.
    clock.advance(2 * 60_000);
    await reconcile(clock, fleet.region);
    expect((await row(id))?.state).toBe("stopped");

    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region)).catch((e) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect(err.reason).toBe("org_suspended");
    expect(err.params).toMatchObject({ suspensionReason: "unpaid invoices" });
    const startErr = await start(o.ctx, o.slug, id).catch((e) => e);
    expect(startErr).toBeInstanceOf(ForbiddenError);
    expect(startErr.reason).toBe("org_suspended");

    const [audit] = await audits(o.org.id, "organization.suspended");
    expect(audit).toMatchObject({
      actor_user_id: opUser.id,
      data: { reason: "unpaid invoices", noticed: 1 },
    });
  });

  it("queues a suspended organization's work with the reason 'organization suspended'", async () => {
    const { clock, fleet, o, op } = await runningInstance();
    const queued = await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    await suspendOrganization(op, { org: o.slug, reason: "abuse report" });
    await tick(clock, fleet.region);
    const r = await getDb().execute<{ state: string; queue_reason: { code: string } | null }>(
      sql`select state, queue_reason from instances where id = ${queued.instance.id}`,
    );
    expect(r.rows[0]).toMatchObject({ state: "queued", queue_reason: { code: "org_suspended" } });
  });

  it("reactivating lets the organization launch again, audited", async () => {
    const { fleet, o, op } = await runningInstance();
    await suspendOrganization(op, { org: o.slug, reason: "unpaid invoices" });
    await expect(suspendOrganization(op, { org: o.slug, reason: "again" })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await reactivateOrganization(op, { org: o.slug });
    expect(await suspensions(o.org.id)).toBe(0);
    await expect(launch(o.ctx, o.slug, notebookSpec(fleet.region))).resolves.toBeDefined();
    expect(await audits(o.org.id, "organization.reactivated")).toHaveLength(1);
    await expect(reactivateOrganization(op, { org: o.slug })).rejects.toBeInstanceOf(ConflictError);
  });

  it("refuses non-operators and invalid input, writing nothing", async () => {
    const { o, id, op } = await runningInstance();
    await expect(suspendOrganization(o.ctx, { org: o.slug, reason: "self" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const bad = await suspendOrganization(op, { org: o.slug, reason: "x", noticeMinutes: -1 }).catch(
      (e) => e,
    );
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.fieldErrors).toEqual({
      reason: ["Say why (3 to 500 characters)"],
      noticeMinutes: ["Enter a notice of 0 to 1440 minutes"],
    });
    expect(await suspensions(o.org.id)).toBe(0);
    expect((await row(id))?.state).toBe("running");
    expect(await audits(o.org.id, "organization.suspended")).toHaveLength(0);
  });

  it("the operator's tenant page reads the suspension, members, projects, running GPUs, month-to-date spend, quota use, instances and audit", async () => {
    const { clock, fleet, o, id, op } = await runningInstance();
    await createProject(o.ctx, o.slug, { name: "Fine-tuning", environment: "staging" });
    // Three hours of the running instance, metered by the real pass: the ledger's month-to-date total.
    clock.advance(3 * 3_600_000);
    await meterUsage(systemCtx("metering", { now: clock.now }), { now: clock.now(), orgIds: [o.org.id] });
    const ledger = await getDb().execute<{ usd: string }>(
      sql`select coalesce(sum(amount), 0) as usd from usage_records where org_id = ${o.org.id}`,
    );
    expect(Number(ledger.rows[0]?.usd)).toBeGreaterThan(0);
    const before = await getTenant(op, o.slug);
    expect(before.spendMtdUsd).toBeCloseTo(Number(ledger.rows[0]?.usd), 6);
    expect(before.projects).toContainEqual({
      slug: "fine-tuning",
      name: "Fine-tuning",
      environment: "staging",
    });
    expect(before.members).toContainEqual(expect.objectContaining({ role: "owner" }));
    expect(before.suspension).toBeNull();
    expect(before.runningGpus).toBe(1);
    expect(before.instances.map((i) => i.id)).toContain(id);
    expect(before.quotaUse).toContainEqual(
      expect.objectContaining({ regionCode: fleet.region, heldGpus: 1 }),
    );
    await suspendOrganization(op, { org: o.slug, reason: "unpaid invoices" });
    const after = await getTenant(op, o.slug);
    expect(after.suspension).toMatchObject({ reason: "unpaid invoices" });
    expect(after.audit[0]).toMatchObject({ action: "organization.suspended" });
    expect(after.members.length).toBeGreaterThan(0);
    await expect(getTenant(o.ctx, o.slug)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getTenant(op, "no-such-org-x")).rejects.toBeInstanceOf(NotFoundError);
  });
});
