import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  type Ctx,
  ForbiddenError,
  QuotaExceededError,
  setCheckpointHook,
  systemCtx,
  type UserActor,
} from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { orgSuspensions, projectQuotas, quotas } from "@/lib/db/schema";
import {
  createFixedProvider,
  launch,
  loadInstanceDetail,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  stop,
} from "@/lib/provisioning";
import { bigQuota, newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import { checkQuotaInvariants, createCohort, quotaLeft, setCohortMember, setOrgQuota } from "@/lib/quotas";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

const tick = (clock: ReturnType<typeof testClock>, region: string) =>
  placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: region });
/** Launch, then move the clock on, so the queue's FIFO order is the order of the test's launches. */
async function launchAt(o: { ctx: Ctx; slug: string; clock: ReturnType<typeof testClock> }, spec: object) {
  const r = await launch(o.ctx, o.slug, spec);
  o.clock.advance(1_000);
  return r;
}
// Scoped to the test's region: vitest files share one database, and a global pass would move other suites' work.
const reconcile = (clock: ReturnType<typeof testClock>, region: string) =>
  reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: region });

async function state(id: string) {
  const r = await getDb().execute<{
    state: string;
    borrowed: boolean;
    queue_reason: unknown;
    state_reason: string;
  }>(sql`select state, borrowed, queue_reason, state_reason from instances where id = ${id}`);
  return r.rows[0];
}

/** Two organizations in one cohort on an 8-GPU region: each 4 nominal, the borrower may borrow 4. */
async function cohortOfTwo(clock = testClock(), nodes = [{ gpus: 8 }]) {
  const fleet = await newFleet(nodes);
  const lender = await newOrg("lender", clock);
  const borrower = await newOrg("borrower", clock);
  const op: Ctx = { actor: { ...(lender.actor as UserActor), isOperator: true }, now: clock.now };
  const cohort = await createCohort(op, { name: `c-${fleet.region}` });
  for (const o of [lender, borrower]) {
    await setCohortMember(op, { cohortId: cohort.id, orgId: o.org.id, weight: 1 });
  }
  const base = { gpuModelId: "h100", regionCode: fleet.region, lendingLimitGpus: "" };
  await setOrgQuota(op, { ...base, orgId: lender.org.id, nominalGpus: 4, borrowingLimitGpus: 0 });
  await setOrgQuota(op, { ...base, orgId: borrower.org.id, nominalGpus: 4, borrowingLimitGpus: 4 });
  return { fleet, lender, borrower, op, clock, cohort };
}

describe("borrowing inside a cohort", () => {
  it("admits beyond nominal up to the borrowing limit, marks the borrowed part, refuses past it", async () => {
    const { fleet, borrower, clock } = await cohortOfTwo();
    const a = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const b = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const preview = await quotaLeft(borrower.ctx, borrower.slug, "h100", fleet.region, 7);
    expect(preview).toMatchObject({ nominalGpus: 4, limitGpus: 8, usedGpus: 8, leftGpus: 0 });
    await expect(
      launch(borrower.ctx, borrower.slug, notebookSpec(fleet.region, { instanceType: "h100.1x" })),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    await tick(clock, fleet.region);
    expect(await state(a.instance.id)).toMatchObject({ state: "provisioning", borrowed: false });
    expect(await state(b.instance.id)).toMatchObject({ state: "provisioning", borrowed: true });
    expect((await loadInstanceDetail(borrower.ctx, borrower.slug, b.instance.id)).borrowed).toBe(true);
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("reclaims the borrowed instance with notice when the lender launches, and requeues it (auto-recover)", async () => {
    const { fleet, lender, borrower, clock } = await cohortOfTwo();
    await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const b = await launchAt(
      borrower,
      notebookSpec(fleet.region, { instanceType: "h100.4x", autoRecover: true }),
    );
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    expect(await state(b.instance.id)).toMatchObject({ state: "running", borrowed: true });

    const l = await launchAt(lender, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const r = await tick(clock, fleet.region);
    expect(r.reclaimed).toBe(1);
    const reclaimed = await state(b.instance.id);
    expect(reclaimed?.state).toBe("preempting");
    expect(reclaimed?.state_reason).toMatch(/borrowed quota/);
    expect(await state(l.instance.id)).toMatchObject({ state: "queued" });
    expect((await state(l.instance.id))?.queue_reason).toMatchObject({ code: "waiting_for_gpus" });
    // A second tick during the notice reclaims nothing more.
    expect((await tick(clock, fleet.region)).reclaimed).toBe(0);

    clock.advance(2 * 60_000 + 1_000);
    await reconcile(clock, fleet.region);
    expect((await state(b.instance.id))?.state).toBe("queued");
    await tick(clock, fleet.region);
    expect((await state(l.instance.id))?.state).toBe("provisioning");
    // The views the console and the API show: borrowed is marked, a queued instance says why it waits.
    const view = await loadInstanceDetail(borrower.ctx, borrower.slug, b.instance.id);
    expect(view.queueReason).toMatchObject({ code: "over_nominal_nothing_to_borrow" });
    const waiting = await state(b.instance.id);
    expect(waiting?.state).toBe("queued");
    expect(waiting?.queue_reason).toMatchObject({
      code: "over_nominal_nothing_to_borrow",
      params: { nominal: 4, inUse: 4, requested: 4, borrowable: 0 },
    });
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("places on what the holders are after its own reclaim: the notice frees GPUs, so no spot work is preempted", async () => {
    const { fleet, lender, borrower, op, clock } = await cohortOfTwo();
    const base = { gpuModelId: "h100", regionCode: fleet.region, lendingLimitGpus: "" };
    await setOrgQuota(op, { ...base, orgId: borrower.org.id, nominalGpus: 2, borrowingLimitGpus: 4 });
    const spotOrg = await newOrg("spot", clock);
    await bigQuota(spotOrg.org.id, fleet.region);
    // The 8-GPU node: the borrower's 4 GPUs (2 of them borrowed) and someone's 2-GPU spot instance run.
    const b = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const spot = await launchAt(
      spotOrg,
      notebookSpec(fleet.region, { instanceType: "h100.2x", pricingModel: "spot" }),
    );
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    expect(await state(b.instance.id)).toMatchObject({ state: "running", borrowed: true });
    expect((await state(spot.instance.id))?.state).toBe("running");

    // The lender wants its 4 guaranteed GPUs: 2 are free, and the tick reclaims the borrower's 4 with notice.
    // Read after that notice, the borrower's GPUs come back when it ends, so the lender's instance waits for
    // them. Read before it, the borrower would look like it runs on with no end, and the planner would
    // preempt the spot instance to make room that is already on its way.
    const l = await launchAt(lender, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const r = await tick(clock, fleet.region);
    expect(r.reclaimed).toBe(1);
    expect(r.preempted).toBe(0);
    expect((await state(b.instance.id))?.state).toBe("preempting");
    expect((await state(spot.instance.id))?.state).toBe("running");
    expect((await state(l.instance.id))?.state).toBe("queued");
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("does not borrow outside a cohort, whatever the borrowing limit says", async () => {
    const clock = testClock();
    const fleet = await newFleet([{ gpus: 8 }]);
    const solo = await newOrg("solo", clock);
    await getDb().insert(quotas).values({
      orgId: solo.org.id,
      gpuModelId: "h100",
      regionCode: fleet.region,
      maxGpus: 1,
      borrowingLimitGpus: 4,
    });
    await launch(solo.ctx, solo.slug, notebookSpec(fleet.region));
    await expect(launch(solo.ctx, solo.slug, notebookSpec(fleet.region))).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
  });

  it("keeps the lender's guaranteed work queued while the borrowed instance still provisions, then reclaims it", async () => {
    // 12 GPUs: room for the lender beside the borrower's 8, so only quota (not the fleet) can hold it back.
    const { fleet, lender, borrower, clock } = await cohortOfTwo(testClock(), [{ gpus: 8 }, { gpus: 4 }]);
    await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const b = await launchAt(
      borrower,
      notebookSpec(fleet.region, { instanceType: "h100.4x", autoRecover: true }),
    );
    await tick(clock, fleet.region);
    expect(await state(b.instance.id)).toMatchObject({ state: "provisioning", borrowed: true });

    // A provisioning instance cannot be reclaimed: placing the lender now would lend 4 GPUs nobody leaves idle.
    const l = await launchAt(lender, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    expect((await tick(clock, fleet.region)).reclaimed).toBe(0);
    expect(await state(l.instance.id)).toMatchObject({
      state: "queued",
      queue_reason: { code: "waiting_for_gpus" },
    });
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);

    // Once it runs, the next tick reclaims it with notice and the lender starts.
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    expect((await tick(clock, fleet.region)).reclaimed).toBe(1);
    expect((await state(b.instance.id))?.state).toBe("preempting");
    expect((await state(l.instance.id))?.state).toBe("provisioning");
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("decides again when the instance it reclaims is stopped by its user while the tick decides", async () => {
    const { fleet, lender, borrower, clock } = await cohortOfTwo(testClock(), [{ gpus: 8 }, { gpus: 4 }]);
    const a = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const b = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    expect(await state(b.instance.id)).toMatchObject({ state: "running", borrowed: true });

    const l = await launchAt(lender, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    // Between the gate's read and the reclaim, the borrower stops b: stopping, it still holds its 4 GPUs, so
    // the reclaim the gate planned did not happen and placing the lender on that plan would over-lend.
    let stopped = false;
    setCheckpointHook(async (name) => {
      if (name !== "scheduler.gated" || stopped) return;
      stopped = true;
      await stop(borrower.ctx, borrower.slug, b.instance.id);
    });
    try {
      // Decided again: the borrower is still 4 GPUs over nominal, so its other running instance goes.
      expect((await tick(clock, fleet.region)).reclaimed).toBe(1);
    } finally {
      setCheckpointHook(null);
    }
    expect(stopped).toBe(true);
    expect((await state(b.instance.id))?.state).toBe("stopping");
    expect((await state(a.instance.id))?.state).toBe("preempting");
    expect((await state(l.instance.id))?.state).toBe("provisioning");
    expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
  });

  it("lets no borrower take more than the lenders leave idle within their lending limits", async () => {
    const { fleet, lender, borrower, op, clock } = await cohortOfTwo();
    await setOrgQuota(op, {
      orgId: lender.org.id,
      gpuModelId: "h100",
      regionCode: fleet.region,
      nominalGpus: 4,
      borrowingLimitGpus: 0,
      lendingLimitGpus: 1,
    });
    await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const two = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.2x" }));
    const one = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.1x" }));
    await tick(clock, fleet.region);
    expect((await state(two.instance.id))?.state).toBe("queued");
    expect((await state(two.instance.id))?.queue_reason).toMatchObject({
      code: "over_nominal_nothing_to_borrow",
      params: { borrowable: 1 },
    });
    expect(await state(one.instance.id)).toMatchObject({ state: "provisioning", borrowed: true });
  });
});

describe("queue reasons and refusals", () => {
  it("says a project's share is used, and a suspended organization cannot launch", async () => {
    const clock = testClock();
    const fleet = await newFleet([{ gpus: 8 }]);
    const o = await newOrg("share", clock);
    const [project] = (
      await getDb().execute<{ id: string }>(sql`select id from projects where org_id = ${o.org.id} limit 1`)
    ).rows;
    await getDb()
      .insert(projectQuotas)
      .values({
        orgId: o.org.id,
        projectId: project?.id as string,
        gpuModelId: "h100",
        regionCode: fleet.region,
        shareGpus: 1,
      });
    await launch(o.ctx, o.slug, notebookSpec(fleet.region));
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region)).catch((e) => e);
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect(err.details).toMatchObject({ reason: "project_share_used", shareGpus: 1, usedGpus: 1 });

    await getDb().insert(orgSuspensions).values({
      orgId: o.org.id,
      reason: "unpaid invoices",
      suspendedAt: clock.now(),
      noticeEndsAt: clock.now(),
    });
    await expect(launch(o.ctx, o.slug, notebookSpec(fleet.region))).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("asks the operator to confirm a cut below guaranteed use, naming what it reclaims, and reclaims it", async () => {
    const { fleet, lender, borrower, op, clock } = await cohortOfTwo();
    const l = await launchAt(lender, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    const cut = { orgId: lender.org.id, gpuModelId: "h100", regionCode: fleet.region, borrowingLimitGpus: 0 };
    const err = await setOrgQuota(op, { ...cut, nominalGpus: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.details.reclaim).toEqual([expect.objectContaining({ instanceId: l.instance.id, gpus: 4 })]);
    await setOrgQuota(op, { ...cut, nominalGpus: 2, confirmReclaim: true });
    await tick(clock, fleet.region);
    expect((await state(l.instance.id))?.state).toBe("preempting");
    // Within nominal + borrowing limit in a cohort, a cut names nothing to reclaim: the part above the new
    // nominal is borrowed, kept while the cohort can lend it (the lender's 2 idle GPUs cover the borrower's 1).
    const b = await launchAt(borrower, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcile(clock, fleet.region);
    expect((await state(b.instance.id))?.state).toBe("running");
    const soft = { ...cut, orgId: borrower.org.id, nominalGpus: 3, borrowingLimitGpus: 4 };
    const kept = await setOrgQuota(op, soft).catch((e) => e);
    expect(kept).toBeInstanceOf(ConflictError);
    expect(kept.details).toMatchObject({ reason: "quota_below_use_borrowed", reclaimCount: 0 });
    await setOrgQuota(op, { ...soft, confirmReclaim: true });
    await tick(clock, fleet.region);
    expect((await state(b.instance.id))?.state).toBe("running");
    const audit = await getDb().execute<{ action: string; data: { before: { nominalGpus: number } } }>(
      sql`select action, data from audit_log where org_id = ${lender.org.id} and action = 'quota.updated' order by at desc limit 1`,
    );
    expect(audit.rows[0]?.data.before.nominalGpus).toBe(4);
  });

  it("refuses operator edits from non-operators and bad levels, writing nothing", async () => {
    const { fleet, lender, op } = await cohortOfTwo();
    const good = {
      orgId: lender.org.id,
      gpuModelId: "h100",
      regionCode: fleet.region,
      borrowingLimitGpus: 0,
    };
    await expect(setOrgQuota(lender.ctx, { ...good, nominalGpus: 100 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const bad = await setOrgQuota(op, { ...good, nominalGpus: 2, lendingLimitGpus: 3 }).catch((e) => e);
    expect(bad.fieldErrors).toEqual({
      lendingLimitGpus: ["The lending limit cannot be larger than the nominal quota"],
    });
    const neg = await setOrgQuota(op, { ...good, nominalGpus: -1 }).catch((e) => e);
    expect(neg.fieldErrors.nominalGpus).toBeDefined();
    const row = await getDb().execute<{ max_gpus: number }>(
      sql`select max_gpus from quotas where org_id = ${lender.org.id} and region_code = ${fleet.region}`,
    );
    expect(row.rows[0]?.max_gpus).toBe(4);
  });
});
