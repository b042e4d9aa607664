import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Ctx,
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  QuotaExceededError,
  systemCtx,
  type UserActor,
  ValidationError,
} from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  createFixedProvider,
  launch,
  placeQueuedInstances,
  reconcileInstances,
  setProvider,
} from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, testClock } from "@/lib/provisioning/__tests__/fixtures";
import {
  createCohort,
  createQuotaRequest,
  decideQuotaRequest,
  expireQuotaRaises,
  listOrgQuotaRequests,
  listQuotaRequests,
  QUOTA_FIELD_MESSAGES,
  regionsOverQuota,
  setCohortMember,
  setOrgQuota,
} from "@/lib/quotas";
import { messagesFor } from "@/messages";

beforeAll(() => setProvider(createFixedProvider({ provisionMs: 10_000, stopMs: 5_000, terminateMs: 2_000 })));

const tick = (clock: ReturnType<typeof testClock>, region: string) =>
  placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: region });
async function stateOf(id: string) {
  const r = await getDb().execute<{ state: string }>(sql`select state from instances where id = ${id}`);
  return r.rows[0]?.state;
}

async function setup() {
  const clock = testClock();
  const fleet = await newFleet([{ gpus: 8 }]);
  const o = await newOrg("req", clock);
  const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true }, now: clock.now };
  await setOrgQuota(op, {
    orgId: o.org.id,
    gpuModelId: "h100",
    regionCode: fleet.region,
    nominalGpus: 1,
    borrowingLimitGpus: 0,
  });
  const member = await o.as("member");
  return { clock, fleet, o, op, member };
}
const ask = (region: string, over: Record<string, unknown> = {}) => ({
  gpuModelId: "h100",
  regionCode: region,
  requestedGpus: 6,
  reason: "Training run for the paper",
  ...over,
});

describe("quota requests", () => {
  it("a member asks after a refusal, the operator partly approves, the requester is emailed, the launch fits", async () => {
    const { fleet, o, op, member, clock } = await setup();
    await launch(member, o.slug, notebookSpec(fleet.region));
    const refused = await launch(
      member,
      o.slug,
      notebookSpec(fleet.region, { instanceType: "h100.4x" }),
    ).catch((e) => e);
    expect(refused).toBeInstanceOf(QuotaExceededError);

    const r = await createQuotaRequest(member, o.slug, ask(fleet.region));
    expect(r.status).toBe("open");
    const queue = await listQuotaRequests(op, { status: "open" });
    expect(queue.find((q) => q.id === r.id)).toMatchObject({
      nominalGpus: 1,
      inUseGpus: 1,
      orgName: o.org.name,
    });

    const decided = await decideQuotaRequest(op, r.id, {
      decision: "approve",
      grantedGpus: 5,
      message: "5 for now",
    });
    expect(decided).toMatchObject({ status: "partial", grantedGpus: 5 });
    const mail = await getDb().execute<{ to_address: string; subject: string; text_body: string }>(
      sql`select to_address, subject, text_body from outbox where org_id = ${o.org.id} order by created_at desc limit 1`,
    );
    expect(mail.rows[0]?.subject).toMatch(/partly raised: H100 in .* is now 5 GPUs/);
    expect(mail.rows[0]?.text_body).toContain("5 for now");
    const l = await launch(member, o.slug, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    await placeQueuedInstances(systemCtx("scheduler", { now: clock.now }), { regionCode: fleet.region });
    const st = await getDb().execute<{ state: string }>(
      sql`select state from instances where id = ${l.instance.id}`,
    );
    expect(st.rows[0]?.state).toBe("provisioning");

    await expect(decideQuotaRequest(op, r.id, { decision: "deny" })).rejects.toBeInstanceOf(
      InvalidStateError,
    );
    const audit = await getDb().execute<{ action: string }>(
      sql`select action from audit_log where org_id = ${o.org.id} and action like 'quota_request.%' order by at`,
    );
    expect(audit.rows.map((a) => a.action)).toEqual(["quota_request.created", "quota_request.partial"]);
  });

  it("a temporary raise goes back to the old nominal when its date passes", async () => {
    const { fleet, o, op, member, clock } = await setup();
    const until = new Date(clock.now().getTime() + 86_400_000);
    const r = await createQuotaRequest(member, o.slug, ask(fleet.region, { until: until.toISOString() }));
    await decideQuotaRequest(op, r.id, { decision: "approve" });
    const nominal = async () =>
      (
        await getDb().execute<{ max_gpus: number }>(
          sql`select max_gpus from quotas where org_id = ${o.org.id} and region_code = ${fleet.region}`,
        )
      ).rows[0]?.max_gpus;
    expect(await nominal()).toBe(6);
    // Work that runs on the raise …
    const big = await launch(member, o.slug, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    await tick(clock, fleet.region);
    clock.advance(11_000);
    await reconcileInstances(systemCtx("provider", { now: clock.now }), { regionCode: fleet.region });
    expect(await stateOf(big.instance.id)).toBe("running");
    expect(await expireQuotaRaises(systemCtx("quota-expiry", { now: clock.now }))).toBe(0);
    clock.advance(86_400_000);
    await expireQuotaRaises(systemCtx("quota-expiry", { now: clock.now }));
    expect(await nominal()).toBe(1);
    // … is reclaimed with notice once it has expired (the organization holds 4 of its 1 again).
    expect(await regionsOverQuota(getDb())).toContain(fleet.region);
    await tick(clock, fleet.region);
    expect(await stateOf(big.instance.id)).toBe("preempting");
  });

  it("the queued instance that waited on the quota starts once the request is approved", async () => {
    const { clock, fleet, o, op, member } = await setup();
    // In a cohort whose other member lends nothing, a launch within nominal + borrowing limit is admitted
    // but waits: over the nominal, nothing to borrow.
    const lender = await newOrg("req-lender", clock);
    const cohort = await createCohort(op, { name: `c-${fleet.region}` });
    await setCohortMember(op, { cohortId: cohort.id, orgId: o.org.id, weight: 1 });
    await setCohortMember(op, { cohortId: cohort.id, orgId: lender.org.id, weight: 1 });
    const k = { gpuModelId: "h100", regionCode: fleet.region };
    await setOrgQuota(op, { ...k, orgId: lender.org.id, nominalGpus: 0, borrowingLimitGpus: 0 });
    await setOrgQuota(op, { ...k, orgId: o.org.id, nominalGpus: 1, borrowingLimitGpus: 2 });
    const waiting = await launch(member, o.slug, notebookSpec(fleet.region, { instanceType: "h100.2x" }));
    await tick(clock, fleet.region);
    const queued = await getDb().execute<{ state: string; queue_reason: { code: string } }>(
      sql`select state, queue_reason from instances where id = ${waiting.instance.id}`,
    );
    expect(queued.rows[0]).toMatchObject({
      state: "queued",
      queue_reason: { code: "over_nominal_nothing_to_borrow" },
    });

    const r = await createQuotaRequest(member, o.slug, ask(fleet.region, { requestedGpus: 2 }));
    await decideQuotaRequest(op, r.id, { decision: "approve" });
    await tick(clock, fleet.region);
    expect(await stateOf(waiting.instance.id)).toBe("provisioning");
  });

  it("refuses viewers, other organizations, non-operators and bad input, writing nothing", async () => {
    const { fleet, o, op, member } = await setup();
    const viewer = await o.as("viewer");
    const other = await newOrg("other");
    await expect(createQuotaRequest(viewer, o.slug, ask(fleet.region))).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(createQuotaRequest(other.ctx, o.slug, ask(fleet.region))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const bad = await createQuotaRequest(
      member,
      o.slug,
      ask(fleet.region, { requestedGpus: 1, reason: "" }),
    ).catch((e) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.fieldErrors.reason).toEqual([QUOTA_FIELD_MESSAGES.reasonRequired]);
    const low = await createQuotaRequest(member, o.slug, ask(fleet.region, { requestedGpus: 1 })).catch(
      (e) => e,
    );
    expect(low.fieldErrors.requestedGpus).toEqual([QUOTA_FIELD_MESSAGES.requestAboveNominal]);
    expect(await listOrgQuotaRequests(viewer, o.slug)).toEqual([]);

    const r = await createQuotaRequest(member, o.slug, ask(fleet.region));
    await expect(decideQuotaRequest(member, r.id, { decision: "deny" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(listQuotaRequests(member)).rejects.toBeInstanceOf(ForbiddenError);
    const tooMuch = await decideQuotaRequest(op, r.id, { decision: "approve", grantedGpus: 7 }).catch(
      (e) => e,
    );
    expect(tooMuch.fieldErrors.grantedGpus).toEqual([QUOTA_FIELD_MESSAGES.grantedInvalid]);
    expect((await listOrgQuotaRequests(member, o.slug))[0]?.status).toBe("open");
  });

  it("keeps the English catalog equal to the field messages lib/quotas produces", () => {
    expect(messagesFor("en").QuotaFieldErrors).toEqual(QUOTA_FIELD_MESSAGES);
  });
});
