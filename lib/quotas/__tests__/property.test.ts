import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ctx, InvalidStateError, QuotaExceededError, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  checkCapacityInvariants,
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
  stop,
  terminate,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import {
  checkQuotaInvariants,
  createCohort,
  setCohortMember,
  setOrgQuota,
  setQuotaPolicy,
} from "@/lib/quotas";

const TYPES = ["h100.1x", "h100.2x", "h100.4x", "h100.mig-3g.40gb"];

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 20_000, stopMs: 8_000, terminateMs: 4_000 })));

const level = fc.record({
  nominal: fc.integer({ min: 0, max: 6 }),
  borrowing: fc.integer({ min: 0, max: 6 }),
  lending: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  weight: fc.constantFrom(0.5, 1, 2),
});
const stepWith = (priority: fc.Arbitrary<number>, type: fc.Arbitrary<number> = fc.nat(TYPES.length - 1)) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant("launch" as const),
        org: fc.nat(2),
        type,
        autoRecover: fc.boolean(),
        priority,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constantFrom("stop" as const, "terminate" as const), pick: fc.nat() }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constantFrom("tick" as const, "reconcile" as const),
        advanceMs: fc.integer({ min: 0, max: 4 * 60_000 }),
      }),
    },
  );
const step = stepWith(fc.integer({ min: -1, max: 0 }));
const batchesOf = (st: typeof step) =>
  fc.array(fc.array(st, { minLength: 2, maxLength: 5 }), { minLength: 3, maxLength: 8 });
/** Batches whose steps run concurrently: launches race each other and the scheduler's ticks. */
const scenario = fc.record({ levels: fc.tuple(level, level, level), batches: batchesOf(step) });
/**
 * The same with each organization's preemption policy drawn and priorities up to 2, so urgent launches give
 * their own organization's lower-priority work notice while other launches and ticks race them.
 */
const tight = fc.record({
  nominal: fc.integer({ min: 1, max: 3 }),
  borrowing: fc.integer({ min: 0, max: 2 }),
  lending: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  weight: fc.constantFrom(0.5, 1, 2),
});
const policyScenario = fc.record({
  // Small levels, so launches meet a full quota often; low and urgent priorities, so some of them preempt.
  levels: fc.tuple(tight, tight, tight),
  batches: batchesOf(stepWith(fc.constantFrom(-2, -1, 2), fc.constantFrom(0, 1, 3))),
  preempt: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;
const expected = (err: unknown) => err instanceof InvalidStateError || err instanceof QuotaExceededError;

/** Instances the drawn scenarios preempted for higher-priority work (the policy property prints it). */
let preemptedForPriority = 0;

/** The property, checked with fast-check's parameters (a seed, a path). */
async function quotasHold(
  params: { numRuns: number; endOnFailure: boolean; seed?: number; path?: string },
  arbitrary: fc.Arbitrary<{
    levels: typeof level extends fc.Arbitrary<infer L> ? [L, L, L] : never;
    batches: Step[][];
    preempt?: boolean[];
  }> = scenario,
) {
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ levels, batches, preempt }) => {
      const clock = testClock();
      const fleet = await newFleet([{ gpus: 8, mig: [7] }, { gpus: 4 }]);
      const orgs = [await newOrg("pa", clock), await newOrg("pb", clock), await newOrg("pc", clock)];
      const op: Ctx = { actor: { ...(orgs[0]?.actor as UserActor), isOperator: true }, now: clock.now };
      const cohort = await createCohort(op, { name: `prop-${fleet.region}` });
      for (const [i, o] of orgs.entries()) {
        const l = levels[i] as (typeof levels)[0];
        await setCohortMember(op, { cohortId: cohort.id, orgId: o.org.id, weight: l.weight });
        await setOrgQuota(op, {
          orgId: o.org.id,
          gpuModelId: "h100",
          regionCode: fleet.region,
          nominalGpus: l.nominal,
          borrowingLimitGpus: l.borrowing,
          lendingLimitGpus: l.lending === null ? null : Math.min(l.lending, l.nominal),
        });
        if (preempt?.[i]) await setQuotaPolicy(o.ctx, o.slug, { preemptLowerPriority: true });
      }
      const ids: Array<{ id: string; org: number }> = [];
      const run = async (s: Step) => {
        if (s.op === "launch") {
          const o = orgs[s.org] as (typeof orgs)[0];
          const r = await launch(
            o.ctx,
            o.slug,
            notebookSpec(fleet.region, {
              instanceType: TYPES[s.type],
              autoRecover: s.autoRecover,
              priority: s.priority,
            }),
          );
          ids.push({ id: r.instance.id, org: s.org });
          return;
        }
        if (s.op === "stop" || s.op === "terminate") {
          const t = ids[s.pick % Math.max(1, ids.length)];
          if (!t) return;
          const o = orgs[t.org] as (typeof orgs)[0];
          return s.op === "stop" ? stop(o.ctx, o.slug, t.id) : terminate(o.ctx, o.slug, t.id);
        }
        if (!("advanceMs" in s)) return;
        clock.advance(s.advanceMs);
        if (s.op === "tick") {
          return placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), {
            regionCode: fleet.region,
          });
        }
        return reconcileInstances(systemCtx("reconciler", { now: clock.now }), {
          regionCode: fleet.region,
        });
      };
      if (preempt) {
        // Each organization's nominal filled with running low-priority work first, so the drawn urgent launches
        // meet a full quota (the racing that follows is drawn as in the other property).
        for (const [i, l] of levels.entries()) {
          for (let g = 0; g < l.nominal; g++) {
            await run({ op: "launch", org: i, type: 0, autoRecover: g % 2 === 0, priority: -2 });
          }
        }
        await run({ op: "tick", advanceMs: 0 });
        await run({ op: "reconcile", advanceMs: 25_000 });
      }
      for (const batch of batches) {
        const results = await Promise.allSettled(batch.map(run));
        for (const r of results) if (r.status === "rejected" && !expected(r.reason)) throw r.reason;
        expect(await checkQuotaInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
        expect(await checkCapacityInvariants(getDb(), { regionCode: fleet.region })).toEqual([]);
      }
      const p = await getDb().execute<{ n: number }>(
        sql`select count(*)::int as n from instances where region_code = ${fleet.region} and preempted_for is not null`,
      );
      preemptedForPriority += Number(p.rows[0]?.n ?? 0);
    }),
    params as never,
  );
}

describe("quotas under concurrency on real PostgreSQL", () => {
  it("concurrent launches and scheduler ticks never overshoot nominal, borrowing or lending limits", async () => {
    // A fixed seed in npm test, so a run is the same search each time; FORJA_QUOTA_RANDOM=1 draws random seeds
    // to keep searching (a new counterexample goes below, with its seed and path).
    await quotasHold({
      numRuns: 8,
      endOnFailure: true,
      ...(process.env.FORJA_QUOTA_RANDOM ? {} : { seed: 20261202 }),
    });
  }, 300_000);

  it("with the organizations' preemption policies drawn, urgent launches never overshoot either", async () => {
    await quotasHold(
      {
        numRuns: 20,
        endOnFailure: true,
        ...(process.env.FORJA_QUOTA_RANDOM ? {} : { seed: 20261203 }),
      },
      policyScenario,
    );
    console.log(`[quota property] ${preemptedForPriority} instances preempted for higher-priority work`);
    expect(preemptedForPriority).toBeGreaterThan(0);
  }, 300_000);

  // A counterexample CI drew (issue 8): org 1 borrowed 31 slices while its instances still provisioned, then
  // org 0 launched within its nominal and the tick placed it, leaving the cohort lending 31 > 14 (a provisioning
  // instance cannot be reclaimed). The gate now keeps such guaranteed work queued until the borrowed work runs
  // and is reclaimed; borrow.test.ts and gate.test.ts hold the same case as one scenario each.
  it("counterexample: seed 117319922 no longer over-lends a cohort", async () => {
    await quotasHold({ numRuns: 8, endOnFailure: true, seed: 117319922, path: "3" });
  }, 300_000);
});
