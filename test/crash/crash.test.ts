import { and, eq, inArray, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluateAutoShutdown, setAutoShutdownPolicy } from "@/lib/autoshutdown";
import { auditOf, mailsTo, noticesOf } from "@/lib/autoshutdown/__tests__/helpers";
import { createBudget, evaluateBudgets } from "@/lib/budgets";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  budgetAlerts,
  gpuAllocations,
  instanceEvents,
  instances,
  meteringCursors,
  notifications,
  outbox,
  shutdownWarnings,
} from "@/lib/db/schema";
import { meterUsage } from "@/lib/metering";
import {
  type BillingCatalog,
  billingCatalog,
  testClock as billingClock,
  ledgerOf,
  newBillingOrg,
  scriptedInstance,
  sumAmount,
} from "@/lib/metering/__tests__/fixtures";
import {
  checkCapacityInvariants,
  createFixedProvider,
  launch,
  placeQueuedInstances,
  policyStop,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import { killAt } from "./kill";

/**
 * The crash test: a real child process runs one background pass, stops at a named checkpoint (lib/core
 * checkpoint: FORJA_TEST_HOOKS=1, FORJA_PAUSE_AT=<name>) and is SIGKILLed there — the middle of the pass, at
 * one exact place instead of a race. The pass is then run again (as a restarted worker would) and the outcome
 * must be what an uninterrupted run gives: no orphan allocation, nothing double-booked, no charge counted
 * twice, nothing left stuck. A checkpoint that is never reached fails the test (the child finishes instead).
 */
// Every case starts child processes (tsx); on a loaded machine each start takes tens of seconds.
describe("crash test: a pass SIGKILLed at each checkpoint, then run again", { timeout: 300_000 }, () => {
  let cat: BillingCatalog;
  beforeAll(async () => {
    cat = await billingCatalog();
    setProvider(createFixedProvider({ provisionMs: 30_000, stopMs: 10_000, terminateMs: 5_000 }));
  });

  const history = (): Array<[string, string]> => [
    ["2030-01-02T09:00:00Z", "requested"],
    ["2030-01-02T09:00:00Z", "queued"],
    ["2030-01-02T09:00:00Z", "provisioning"],
    ["2030-01-02T09:05:00Z", "running"],
    ["2030-01-02T13:35:00Z", "stopping"],
    ["2030-01-02T13:36:00Z", "stopped"],
  ];
  const NOW = "2030-01-03T00:00:00Z";

  for (const point of ["metering.late-events.marked", "metering.org.written"]) {
    it(`metering killed at ${point}: the ledger equals an uninterrupted run's, no charge counted twice`, async () => {
      const control = await newBillingOrg(billingClock(NOW), "crashctl");
      const crashed = await newBillingOrg(billingClock(NOW), "crash");
      await scriptedInstance(control, cat, history());
      await scriptedInstance(crashed, cat, history());
      await meterUsage(systemCtx("metering"), { now: new Date(NOW), orgIds: [control.org.id] });
      const expected = await ledgerOf(control.org.id);
      expect(expected.length).toBeGreaterThan(0);

      const killed = await killAt(point, "metering", { now: NOW, orgIds: [crashed.org.id] });
      expect(killed).toEqual({ paused: point, signal: "SIGKILL" });
      // The killed pass left nothing half-written: its transaction died with it.
      expect(await ledgerOf(crashed.org.id)).toEqual([]);
      expect(
        await getDb().select().from(meteringCursors).where(eq(meteringCursors.orgId, crashed.org.id)),
      ).toEqual([]);

      // Restarted: the pass runs again, and once more (a retried job) — it writes the difference only once.
      await meterUsage(systemCtx("metering"), { now: new Date(NOW), orgIds: [crashed.org.id] });
      await meterUsage(systemCtx("metering"), { now: new Date(NOW), orgIds: [crashed.org.id] });
      const got = await ledgerOf(crashed.org.id);
      const shape = (rows: typeof got) =>
        rows.map((r) => [r.kind, r.entry, r.periodStart.toISOString(), r.seconds, r.quantity, r.amount]);
      expect(shape(got)).toEqual(shape(expected));
      expect(sumAmount(got)).toBeCloseTo(sumAmount(expected), 6);
    });
  }

  it("scheduler and reconcile killed at scheduler.placed and reconcile.transitioned: nothing half-done, each instance booked and started once", async () => {
    const fleet = await newFleet([{ gpus: 8 }]);
    const clock = testClock();
    const o = await newOrg("crashsched", clock);
    await bigQuota(o.org.id, fleet.region);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { instance } = await launch(
        o.ctx,
        o.slug,
        notebookSpec(fleet.region, { instanceType: "h100.2x" }),
      );
      ids.push(instance.id);
      clock.advance(1000);
    }
    const now = clock.now().toISOString();

    const killed = await killAt("scheduler.placed", "scheduler", { now, regionCode: fleet.region });
    expect(killed).toEqual({ paused: "scheduler.placed", signal: "SIGKILL" });
    const db = getDb();
    const live = () =>
      db
        .select()
        .from(gpuAllocations)
        .where(and(inArray(gpuAllocations.instanceId, ids), isNull(gpuAllocations.releasedAt)));
    // Killed with allocations written but not committed: no orphan allocation, every instance still queued.
    expect(await live()).toEqual([]);
    const states = async () =>
      (await db.select({ s: instances.state }).from(instances).where(inArray(instances.id, ids))).map(
        (r) => r.s,
      );
    expect(await states()).toEqual(["queued", "queued", "queued"]);

    // Restarted (the region's placement lock died with the killed connection): placed once, twice is a no-op.
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    expect(await states()).toEqual(["provisioning", "provisioning", "provisioning"]);
    const rows = await live();
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.nodeGpuId)).size).toBe(6);
    expect(await checkCapacityInvariants(db, { regionCode: fleet.region })).toEqual([]);

    // Reconcile killed at reconcile.transitioned once the provisioning delay is over: still provisioning,
    // then on the rerun each instance is running once (one event), on the GPUs it was booked.
    clock.advance(30_000);
    const due = clock.now().toISOString();
    const killedR = await killAt("reconcile.transitioned", "reconcile", {
      now: due,
      regionCode: fleet.region,
    });
    expect(killedR).toEqual({ paused: "reconcile.transitioned", signal: "SIGKILL" });
    expect(await states()).toEqual(["provisioning", "provisioning", "provisioning"]);
    const reconcile = () =>
      reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: fleet.region });
    await reconcile();
    await reconcile();
    expect(await states()).toEqual(["running", "running", "running"]);
    const runningEvents = await db
      .select()
      .from(instanceEvents)
      .where(and(inArray(instanceEvents.instanceId, ids), eq(instanceEvents.toState, "running")));
    expect(runningEvents).toHaveLength(3);
    expect((await live()).map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(await checkCapacityInvariants(db, { regionCode: fleet.region })).toEqual([]);
  });

  async function warnedOrg(label: string) {
    const org = await newBillingOrg(billingClock("2030-05-06T10:50:00Z"), label);
    await setAutoShutdownPolicy(org.ctx, org.slug, { snoozeMinutesMax: 60, maxSnoozes: 3 });
    const inst = await scriptedInstance(
      org,
      cat,
      [
        ["2030-05-06T10:00:00Z", "provisioning"],
        ["2030-05-06T10:00:00Z", "running"],
      ],
      { autoShutdown: { idle: null, maxRuntimeMinutes: 60 } },
    );
    await evaluateAutoShutdown(systemCtx("policy"), {
      now: new Date("2030-05-06T10:50:00Z"),
      orgIds: [org.org.id],
      stop: policyStop,
    });
    return { org, inst };
  }
  const DUE = "2030-05-06T11:01:00Z";
  const actAt = (orgId: string) =>
    evaluateAutoShutdown(systemCtx("policy"), { now: new Date(DUE), orgIds: [orgId], stop: policyStop });
  /** What a pass leaves behind: stop transitions, warnings acted on, notices, emails, audit entries. */
  async function outcome(orgId: string, instanceId: string) {
    const db = getDb();
    const events = await db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, instanceId));
    const warnings = await db
      .select()
      .from(shutdownWarnings)
      .where(eq(shutdownWarnings.instanceId, instanceId));
    const [row] = await db.select({ s: instances.state }).from(instances).where(eq(instances.id, instanceId));
    return {
      state: row?.s,
      stops: events.filter((e) => e.toState === "stopping").length,
      acted: warnings.filter((w) => w.actedAt).length,
      open: warnings.filter((w) => !w.actedAt && !w.cancelledAt).length,
      notices: (await noticesOf(orgId)).map((n) => n.kind).sort(),
      emails: (await mailsTo(orgId)).map((m) => m.subject.replace(/i-[a-z0-9]+/g, "i-*")).sort(),
      audit: (await auditOf(orgId, "instance.stopped")).length,
    };
  }

  for (const point of ["autoshutdown.pass.read", "autoshutdown.act.locked", "autoshutdown.act.stopped"]) {
    it(`auto-shutdown killed at ${point}: one stop, one notice, no email twice, nothing stuck`, async () => {
      const control = await warnedOrg("crashctl");
      const crashed = await warnedOrg("crash");
      await actAt(control.org.org.id);
      const expected = await outcome(control.org.org.id, control.inst.id);
      expect(expected).toMatchObject({ stops: 1, acted: 1, open: 0, audit: 1 });
      expect(expected.notices).toContain("autoshutdown.stopped");

      const before = await outcome(crashed.org.org.id, crashed.inst.id);
      const killed = await killAt(point, "autoshutdown", { now: DUE, orgIds: [crashed.org.org.id] });
      expect(killed).toEqual({ paused: point, signal: "SIGKILL" });
      // Nothing of the killed pass survived: the instance still runs, its warning is still open.
      expect(await outcome(crashed.org.org.id, crashed.inst.id)).toEqual(before);
      expect(before).toMatchObject({ state: "running", stops: 0, open: 1 });

      await actAt(crashed.org.org.id);
      await actAt(crashed.org.org.id);
      expect(await outcome(crashed.org.org.id, crashed.inst.id)).toEqual(expected);
    });
  }

  it("budgets killed at budgets.alert.enqueued: each crossing alerted once, one email per recipient", async () => {
    const AT = "2030-03-03T01:00:00Z";
    async function budgeted(label: string) {
      const org = await newBillingOrg(billingClock("2030-03-01T00:00:00Z"), label);
      await scriptedInstance(org, cat, [
        ["2030-02-28T23:55:00Z", "requested"],
        ["2030-02-28T23:55:00Z", "queued"],
        ["2030-02-28T23:55:00Z", "provisioning"],
        ["2030-03-01T00:00:00Z", "running"],
      ]);
      await createBudget(org.ctx, org.slug, {
        name: "Research",
        amountUsd: 100,
        recipientUserIds: [org.user.id],
        recipientEmails: ["finance@example.test"],
      });
      await meterUsage(systemCtx("metering"), { now: new Date(AT), orgIds: [org.org.id] });
      return org;
    }
    const evaluate = (orgId: string) =>
      evaluateBudgets(systemCtx("budgets"), { now: new Date(AT), orgIds: [orgId], stop: policyStop });
    const db = getDb();
    const left = async (orgId: string) => ({
      alerts: (await db.select().from(budgetAlerts).where(eq(budgetAlerts.orgId, orgId)))
        .map((a) => `${a.kind}:${a.pct}`)
        .sort(),
      emails: (await db.select().from(outbox).where(eq(outbox.orgId, orgId))).map((m) => m.toAddress).sort(),
      notices: (await db.select().from(notifications).where(eq(notifications.orgId, orgId))).length,
    });
    const control = await budgeted("crashctl");
    await evaluate(control.org.id);
    const expected = await left(control.org.id);
    expect(expected.alerts.length).toBeGreaterThan(0);
    expect(expected.emails.length).toBe(expected.alerts.length * 2);

    const crashed = await budgeted("crash");
    const killed = await killAt("budgets.alert.enqueued", "budgets", { now: AT, orgIds: [crashed.org.id] });
    expect(killed).toEqual({ paused: "budgets.alert.enqueued", signal: "SIGKILL" });
    expect(await left(crashed.org.id)).toEqual({ alerts: [], emails: [], notices: 0 });
    await evaluate(crashed.org.id);
    await evaluate(crashed.org.id);
    const got = await left(crashed.org.id);
    expect(got.alerts).toEqual(expected.alerts);
    expect(got.notices).toBe(expected.notices);
    // Same recipients, each once per crossing (the org's owner address differs between the two orgs).
    expect(got.emails.length).toBe(expected.emails.length);
    expect(got.emails.filter((e) => e === "finance@example.test")).toHaveLength(expected.alerts.length);
  });
});
