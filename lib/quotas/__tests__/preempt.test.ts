import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ctx, ForbiddenError, QuotaExceededError, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  start,
  stop,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import {
  checkQuotaInvariants,
  choosePreemptions,
  getQuotaPolicy,
  setOrgQuota,
  setProjectShare,
  setQuotaPolicy,
} from "@/lib/quotas";
import { createProject } from "@/lib/tenancy";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

type Clock = ReturnType<typeof testClock>;
const tick = (clock: Clock, region: string) =>
  placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: region });
const reconcile = (clock: Clock, region: string) =>
  reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: region });

async function row(id: string) {
  const r = await getDb().execute<{
    state: string;
    state_reason: string | null;
    preempted_for: string | null;
    state_deadline: string | null;
  }>(sql`select state, state_reason, preempted_for, state_deadline from instances where id = ${id}`);
  return r.rows[0];
}
async function lastReason(id: string) {
  const r = await getDb().execute<{ reason_code: string | null; reason_params: Record<string, unknown> }>(
    sql`select reason_code, reason_params from instance_events where instance_id = ${id} order by id desc limit 1`,
  );
  return r.rows[0];
}

/** An organization with a nominal of `nominal` H100s on a 16-GPU region (physical room is never the limit). */
async function orgWithQuota(nominal: number, policy: boolean) {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 8 }, { gpus: 8 }]);
  const o = await newOrg("prio", clock);
  const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true }, now: clock.now };
  await setOrgQuota(op, {
    orgId: o.org.id,
    gpuModelId: "h100",
    regionCode: fleet.region,
    nominalGpus: nominal,
    borrowingLimitGpus: 0,
    lendingLimitGpus: "",
  });
  if (policy) await setQuotaPolicy(o.ctx, o.slug, { preemptLowerPriority: true });
  /** Launch, then move the clock on, so start times (and so "youngest") follow the order of launches. */
  const run = async (over: Record<string, unknown>, ctx: Ctx = o.ctx) => {
    const r = await launch(ctx, o.slug, notebookSpec(fleet.region, over));
    clock.advance(1_000);
    return r.instance;
  };
  /** Place and bring up what is queued. */
  const settle = async () => {
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
  };
  return { ...o, clock, fleet, op, run, settle };
}

describe("the organization's preemption policy (higher priority may preempt its own lower-priority work)", () => {
  it("is off by default: a launch over the quota is refused and nothing is preempted", async () => {
    const o = await orgWithQuota(2, false);
    expect(await getQuotaPolicy(o.ctx, o.slug)).toEqual({ preemptLowerPriority: false });
    const low = await o.run({ instanceType: "h100.2x", priority: -10 });
    await o.settle();
    await expect(o.run({ instanceType: "h100.1x", priority: 50 })).rejects.toBeInstanceOf(QuotaExceededError);
    expect((await row(low.id))?.state).toBe("running");
  });

  it("gives notice to the lowest-priority, youngest running work, just enough, and the launch is queued", async () => {
    const o = await orgWithQuota(4, true);
    const older = await o.run({ instanceType: "h100.1x", priority: -10, autoRecover: true });
    await o.settle();
    const younger = await o.run({ instanceType: "h100.1x", priority: -10, autoRecover: true });
    const normal = await o.run({ instanceType: "h100.2x", priority: 0 });
    await o.settle();
    for (const i of [older, younger, normal]) expect((await row(i.id))?.state).toBe("running");

    const urgent = await o.run({ instanceType: "h100.1x", priority: 50, name: "urgent-eval" });
    expect(urgent.state).toBe("queued");
    const victim = await row(younger.id);
    expect(victim).toMatchObject({ state: "preempting", preempted_for: urgent.id });
    expect(victim?.state_reason).toMatch(/higher-priority work of your organization \(urgent-eval/);
    expect(new Date(victim?.state_deadline as string).getTime()).toBe(
      o.clock.now().getTime() - 1_000 + 120_000,
    );
    expect(await lastReason(younger.id)).toMatchObject({
      reason_code: "preempted_for_priority",
      reason_params: { name: "urgent-eval", priority: 50, seconds: 120 },
    });
    expect((await row(older.id))?.state).toBe("running");
    expect((await row(normal.id))?.state).toBe("running");
    // The victim in its notice no longer counts: queued and held stay within the nominal of 4.
    expect(await checkQuotaInvariants(getDb(), { regionCode: o.fleet.region })).toEqual([]);

    // The scheduler places the urgent work at once (quota-wise the victim is already given back).
    await o.settle();
    expect((await row(urgent.id))?.state).toBe("running");
    // At the notice's end the victim stops, auto-recover or not: requeued it would put the organization over.
    o.clock.advance(120_000);
    await reconcile(o.clock, o.fleet.region);
    expect((await row(younger.id))?.state).toBe("preempted");
    expect(await checkQuotaInvariants(getDb(), { regionCode: o.fleet.region })).toEqual([]);
    // Started again by its user, it is admitted anew (and refused while the quota is in use).
    await expect(start(o.ctx, o.slug, younger.id)).rejects.toBeInstanceOf(QuotaExceededError);
    await stop(o.ctx, o.slug, urgent.id);
    o.clock.advance(6_000);
    await reconcile(o.clock, o.fleet.region);
    const again = await start(o.ctx, o.slug, younger.id);
    expect(again.state).toBe("queued");
    expect((await row(younger.id))?.preempted_for).toBeNull();
  });

  it("never preempts work of equal or higher priority", async () => {
    const o = await orgWithQuota(2, true);
    const a = await o.run({ instanceType: "h100.1x", priority: 10 });
    const b = await o.run({ instanceType: "h100.1x", priority: 20 });
    await o.settle();
    const refusal = await o.run({ instanceType: "h100.1x", priority: 10 }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(QuotaExceededError);
    expect((refusal as Error).message).toMatch(/not enough of it runs here to make room/);
    expect((await row(a.id))?.state).toBe("running");
    expect((await row(b.id))?.state).toBe("running");
  });

  it("preempts nothing when all the lower-priority work would still not make room", async () => {
    const o = await orgWithQuota(4, true);
    const low = await o.run({ instanceType: "h100.1x", priority: -5 });
    const high = await o.run({ instanceType: "h100.2x", priority: 60 });
    await o.settle();
    await expect(o.run({ instanceType: "h100.4x", priority: 60 })).rejects.toBeInstanceOf(QuotaExceededError);
    expect((await row(low.id))?.state).toBe("running");
    expect((await row(high.id))?.state).toBe("running");
    // Queued lower-priority work is not preempted (it holds nothing), and it still counts.
    const queued = await o.run({ instanceType: "h100.1x", priority: -5 });
    expect(queued.state).toBe("queued");
    await expect(o.run({ instanceType: "h100.2x", priority: 60 })).rejects.toBeInstanceOf(QuotaExceededError);
    expect((await row(low.id))?.state).toBe("running");
  });

  it("applies to starting a stopped higher-priority instance too", async () => {
    const o = await orgWithQuota(2, true);
    const important = await o.run({ instanceType: "h100.2x", priority: 40 });
    await o.settle();
    await stop(o.ctx, o.slug, important.id);
    o.clock.advance(6_000);
    await reconcile(o.clock, o.fleet.region);
    const filler = await o.run({ instanceType: "h100.2x", priority: 0 });
    await o.settle();
    expect((await row(filler.id))?.state).toBe("running");
    await start(o.ctx, o.slug, important.id);
    expect(await row(filler.id)).toMatchObject({ state: "preempting", preempted_for: important.id });
    expect(await checkQuotaInvariants(getDb(), { regionCode: o.fleet.region })).toEqual([]);
  });

  it("under concurrent launches never preempts twice for the same room nor overshoots the quota", async () => {
    const o = await orgWithQuota(4, true);
    const lows = [];
    for (let i = 0; i < 4; i++) lows.push(await o.run({ instanceType: "h100.1x", priority: -1 }));
    await o.settle();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        launch(o.ctx, o.slug, notebookSpec(o.fleet.region, { instanceType: "h100.1x", priority: 30 + i })),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(4);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(QuotaExceededError);
    }
    const states = await Promise.all(lows.map((l) => row(l.id)));
    expect(states.map((s) => s?.state).sort()).toEqual([
      "preempting",
      "preempting",
      "preempting",
      "preempting",
    ]);
    expect(new Set(states.map((s) => s?.preempted_for)).size).toBe(4);
    expect(await checkQuotaInvariants(getDb(), { regionCode: o.fleet.region })).toEqual([]);
  });

  it("makes room in a project's share with that project's own work", async () => {
    const o = await orgWithQuota(8, true);
    const research = await createProject(o.ctx, o.slug, {
      name: "Research",
      slug: "research",
      environment: "production",
    });
    await setProjectShare(o.ctx, o.slug, {
      project: research.slug,
      gpuModelId: "h100",
      regionCode: o.fleet.region,
      shareGpus: 2,
    });
    const otherLowest = await o.run({ instanceType: "h100.1x", priority: -50 });
    const inShare = await o.run({ instanceType: "h100.2x", priority: -1, project: research.slug });
    await o.settle();
    const urgent = await o.run({ instanceType: "h100.1x", priority: 20, project: research.slug });
    expect(urgent.state).toBe("queued");
    expect((await row(inShare.id))?.state).toBe("preempting");
    // The default project's lower-priority work does not help the share, so it keeps running.
    expect((await row(otherLowest.id))?.state).toBe("running");
  });

  it("is set by admins and owners only, audited; any member reads it", async () => {
    const o = await orgWithQuota(2, false);
    const member = await o.as("member");
    const admin = await o.as("admin");
    await expect(setQuotaPolicy(member, o.slug, { preemptLowerPriority: true })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(await getQuotaPolicy(member, o.slug)).toEqual({ preemptLowerPriority: false });
    await expect(setQuotaPolicy(admin, o.slug, { preemptLowerPriority: "yes" })).rejects.toMatchObject({
      fieldErrors: { preemptLowerPriority: [expect.stringMatching(/true or false/)] },
    });
    expect(await setQuotaPolicy(admin, o.slug, { preemptLowerPriority: true })).toEqual({
      preemptLowerPriority: true,
    });
    const audit = await getDb().execute<{ action: string; data: unknown }>(
      sql`select action, data from audit_log where org_id = ${o.org.id} and action = 'quota.policy_changed'`,
    );
    expect(audit.rows).toEqual([
      {
        action: "quota.policy_changed",
        data: { from: { preemptLowerPriority: false }, to: { preemptLowerPriority: true } },
      },
    ]);
  });
});

describe("choosePreemptions", () => {
  const w = (id: string, projectId: string, slices: number) => ({ id, projectId, slices });
  it("takes work in the order given until every level fits", () => {
    const work = [w("a", "p", 7), w("b", "q", 7), w("c", "p", 14)];
    expect(choosePreemptions({ org: 7, share: 0 }, "p", work)?.map((x) => x.id)).toEqual(["a"]);
    expect(choosePreemptions({ org: 8, share: 0 }, "p", work)?.map((x) => x.id)).toEqual(["a", "b"]);
    expect(choosePreemptions({ org: 28, share: 0 }, "p", work)?.map((x) => x.id)).toEqual(["a", "b", "c"]);
    expect(choosePreemptions({ org: 29, share: 0 }, "p", work)).toBeNull();
  });
  it("for a project's share, skips other projects' work once the organization fits", () => {
    const work = [w("b", "q", 7), w("a", "p", 7)];
    expect(choosePreemptions({ org: 0, share: 7 }, "p", work)?.map((x) => x.id)).toEqual(["a"]);
    expect(choosePreemptions({ org: 7, share: 7 }, "p", work)?.map((x) => x.id)).toEqual(["b", "a"]);
    expect(choosePreemptions({ org: 0, share: 8 }, "p", work)).toBeNull();
  });
});
