import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  type Ctx,
  ForbiddenError,
  fieldMessageOf,
  systemCtx,
  type UserActor,
} from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { createFixedProvider, launch, placeQueuedInstances, setProvider } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import {
  checkQuotaInvariants,
  createCohort,
  listCohorts,
  listQuotaHistory,
  listQuotaTable,
  QUOTA_FIELD_MESSAGES,
  regionsOverQuota,
  setCohortMember,
  setOrgQuota,
} from "@/lib/quotas";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 1_000, stopMs: 1_000, terminateMs: 1_000 })));

describe("operator quota overview", () => {
  it("lists each organization's levels with what it uses, borrows and lends, and the history with its actor", async () => {
    const clock = testClock();
    const fleet = await newFleet([{ gpus: 8 }]);
    const lender = await newOrg("lend", clock);
    const borrower = await newOrg("borrow", clock);
    const op: Ctx = { actor: { ...(lender.actor as UserActor), isOperator: true }, now: clock.now };
    const cohort = await createCohort(op, { name: `c-${fleet.region}` });
    for (const o of [lender, borrower]) {
      await setCohortMember(op, { cohortId: cohort.id, orgId: o.org.id, weight: 1 });
    }
    const k = { gpuModelId: "h100", regionCode: fleet.region };
    await setOrgQuota(op, { ...k, orgId: lender.org.id, nominalGpus: 4, borrowingLimitGpus: 0 });
    await setOrgQuota(op, { ...k, orgId: borrower.org.id, nominalGpus: 1, borrowingLimitGpus: 3 });
    const member = await borrower.as("member");
    await launch(member, borrower.slug, notebookSpec(fleet.region, { instanceType: "h100.2x" }));
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });

    const rows = (await listQuotaTable(op)).filter((r) => r.regionCode === fleet.region);
    expect(rows.find((r) => r.orgId === borrower.org.id)).toMatchObject({
      nominalGpus: 1,
      borrowingLimitGpus: 3,
      inUseGpus: 2,
      borrowedGpus: 1,
      lentGpus: 0,
      source: "organization",
    });
    expect(rows.find((r) => r.orgId === lender.org.id)).toMatchObject({
      nominalGpus: 4,
      inUseGpus: 0,
      lentGpus: 1,
    });
    expect((await listCohorts(op)).find((c) => c.id === cohort.id)?.members).toHaveLength(2);

    const history = await listQuotaHistory(op, 200);
    const mine = history.filter((h) => h.orgId === borrower.org.id || h.targetId === cohort.id);
    expect(mine.map((h) => h.action)).toEqual(expect.arrayContaining(["quota.updated", "cohort.member_set"]));
    expect(mine.every((h) => h.actorEmail === lender.actor.email)).toBe(true);

    await expect(listQuotaTable(lender.ctx)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listQuotaHistory(member)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("going below guaranteed use names the instances it reclaims and writes nothing without confirmation", async () => {
    const clock = testClock();
    const fleet = await newFleet([{ gpus: 8 }]);
    const o = await newOrg("cut", clock);
    const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true }, now: clock.now };
    const k = { orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region };
    await setOrgQuota(op, { ...k, nominalGpus: 4, borrowingLimitGpus: 0 });
    const spec = notebookSpec(fleet.region, { instanceType: "h100.2x", name: "big-run" });
    await launch(o.ctx, o.slug, spec);
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    await getDb().execute(
      sql`update instances set state = 'running', started_at = now() where org_id = ${o.org.id}`,
    );

    const err = await setOrgQuota(op, { ...k, nominalGpus: 1, borrowingLimitGpus: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.params).toMatchObject({
      reclaimCount: 1,
      reclaimNames: "big-run",
      guaranteedGpus: 2,
      nominalGpus: 1,
    });
    const q = await getDb().execute<{ max_gpus: number }>(
      sql`select max_gpus from quotas where org_id = ${o.org.id} and region_code = ${fleet.region}`,
    );
    expect(q.rows[0]?.max_gpus).toBe(4);
    await setOrgQuota(op, { ...k, nominalGpus: 1, borrowingLimitGpus: 0, confirmReclaim: "on" });

    // Confirmed, the cut does what it said: the region is ticked with nothing queued, and the named instance
    // gets the reclaim notice (then auto-recover's requeue, as any reclaim); the levels hold again.
    // (The scheduler's own region list takes regionsOverQuota; the tick is scoped here: files share one database.)
    expect(await regionsOverQuota(getDb())).toContain(fleet.region);
    const tick = await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), {
      regionCode: fleet.region,
    });
    expect(tick.reclaimed).toBe(1);
    const after = await getDb().execute<{ name: string; state: string; reason_code: string }>(sql`
      select i.name, i.state, e.reason_code from instances i
      join instance_events e on e.instance_id = i.id and e.to_state = 'preempting'
      where i.org_id = ${o.org.id}`);
    expect(after.rows).toEqual([{ name: "big-run", state: "preempting", reason_code: "quota_lowered" }]);
    // Held is back within the new levels (its footprint still counts the instance until its notice ends).
    const violations = await checkQuotaInvariants(getDb(), { regionCode: fleet.region });
    expect(violations.filter((v) => v.kind !== "org_footprint_over_limit")).toEqual([]);
    expect(await regionsOverQuota(getDb())).not.toContain(fleet.region);
  });

  it("quota field messages are in the field-message registry, so forms show them in the reader's language", () => {
    expect(fieldMessageOf(QUOTA_FIELD_MESSAGES.lendingAboveNominal).key).toBe(
      "QuotaFieldErrors.lendingAboveNominal",
    );
  });
});
