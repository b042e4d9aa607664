import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lastEvent, mailsTo, noticesOf, stateOf } from "@/lib/autoshutdown/__tests__/helpers";
import { createBudget, evaluateBudgets, updateBudget } from "@/lib/budgets";
import { QuotaExceededError, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instances, memberships, projects } from "@/lib/db/schema";
import { meterUsage } from "@/lib/metering";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { launch, policyStop, start } from "@/lib/provisioning";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const worker = systemCtx("policy");

/** An organization whose instance has run at $2.50/h since May 1st: $12.50 spent at 05:00. */
async function spending() {
  const clock = testClock("2030-05-01T05:00:00Z");
  const org = await newBillingOrg(clock, "cap");
  const inst = await scriptedInstance(org, cat, [
    ["2030-05-01T00:00:00Z", "provisioning"],
    ["2030-05-01T00:00:00Z", "running"],
  ]);
  return { org, inst, clock };
}
const spec = (over: Record<string, unknown> = {}) => ({
  kind: "notebook",
  name: `nb-${Math.random().toString(36).slice(2, 8)}`,
  project: "default",
  region: cat.region,
  instanceType: cat.type1x,
  image: "pytorch-2.5-cuda12.4",
  ...over,
});

describe("budget actions at 100 %", () => {
  it("block_launches makes launch refuse with a clear error until the budget is raised", async () => {
    const { org } = await spending();
    const member = await org.as("member");
    const notify = await createBudget(org.ctx, org.slug, { name: "Watch only", amountUsd: 5 });
    await expect(launch(member, org.slug, spec())).resolves.toBeTruthy();
    await updateBudget(org.ctx, org.slug, notify.id, {
      name: "Watch only",
      amountUsd: 5,
      actionAt100: "block_launches",
    });

    const err = await launch(member, org.slug, spec()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as Error).message).toBe(
      "The budget 'Watch only' is used up for 2030-05 ($12.50 of $5.00): new launches are blocked until an admin " +
        "raises the budget or the month ends.",
    );
    expect(await getDb().$count(instances, eq(instances.orgId, org.org.id))).toBe(2);

    // A cap on another project does not block this one.
    const [batch] = await getDb()
      .insert(projects)
      .values({ orgId: org.org.id, slug: "batch", name: "Batch", createdAt: new Date() })
      .returning();
    await updateBudget(org.ctx, org.slug, notify.id, {
      name: "Watch only",
      amountUsd: 5,
      actionAt100: "block_launches",
      project: batch?.slug,
    });
    await expect(launch(member, org.slug, spec())).resolves.toBeTruthy();
    await expect(launch(member, org.slug, spec({ project: "batch" }))).resolves.toBeTruthy();
    await updateBudget(org.ctx, org.slug, notify.id, {
      name: "Watch only",
      amountUsd: 5,
      actionAt100: "block_launches",
    });
    await expect(launch(member, org.slug, spec())).rejects.toBeInstanceOf(QuotaExceededError);
    await updateBudget(org.ctx, org.slug, notify.id, {
      name: "Watch only",
      amountUsd: 50,
      actionAt100: "block_launches",
    });
    await expect(launch(member, org.slug, spec())).resolves.toBeTruthy();
  });

  it("block_launches also refuses starting a stopped instance again", async () => {
    const { org } = await spending();
    const stopped = await scriptedInstance(org, cat, [
      ["2030-05-01T00:00:00Z", "provisioning"],
      ["2030-05-01T00:00:00Z", "running"],
      ["2030-05-01T01:00:00Z", "stopping"],
      ["2030-05-01T01:00:00Z", "stopped"],
    ]);
    const member = await org.as("member");
    await createBudget(org.ctx, org.slug, { name: "Cap", amountUsd: 5, actionAt100: "block_launches" });
    await expect(start(member, org.slug, stopped.id)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(await stateOf(stopped.id)).toBe("stopped");
  });

  it("stop_instances warns, then stops running instances after the grace period with the reason", async () => {
    const { org, inst, clock } = await spending();
    await createBudget(org.ctx, org.slug, {
      name: "Hard cap",
      amountUsd: 10,
      actionAt100: "stop_instances",
      graceMinutes: 30,
    });
    const run = async (at: string) => {
      clock.set(at);
      await meterUsage(worker, { now: clock.now(), orgIds: [org.org.id] });
      return evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop });
    };
    expect(await run("2030-05-01T05:00:00Z")).toMatchObject({ stopped: 0 });
    const warning = (await mailsTo(org.org.id)).find((m) => m.subject.includes("at 100%"));
    expect(warning?.subject).toBe("Budget 'Hard cap' at 100% — $12.50 of $10.00");
    expect(warning?.textBody).toContain(
      "Running instances in the organization " +
        `${org.org.name} will be stopped at May 1, 2030, 5:30 AM (UTC)`,
    );
    expect(await run("2030-05-01T05:29:00Z")).toMatchObject({ stopped: 0 });
    expect(await stateOf(inst.id)).toBe("running");
    expect(await run("2030-05-01T05:30:00Z")).toMatchObject({ stopped: 1 });
    expect(await stateOf(inst.id)).toBe("stopping");
    const ev = await lastEvent(inst.id);
    expect(ev?.reason).toMatch(/^budget exceeded: 'Hard cap' at \$13\.75 of \$10\.00 \(2030-05\)$/);
    expect(ev?.actorKind).toBe("policy");
    expect((await noticesOf(org.org.id)).map((n) => n.kind)).toContain("budget.stopped");
    expect(await run("2030-05-01T05:31:00Z")).toMatchObject({ stopped: 0, alerts: 0 });
  });

  it("does not stop once the budget has been raised during the grace period", async () => {
    const { org, inst, clock } = await spending();
    const b = await createBudget(org.ctx, org.slug, {
      name: "Raised",
      amountUsd: 10,
      actionAt100: "stop_instances",
      graceMinutes: 30,
    });
    await evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop });
    await updateBudget(org.ctx, org.slug, b.id, {
      name: "Raised",
      amountUsd: 100,
      actionAt100: "stop_instances",
      graceMinutes: 30,
    });
    clock.set("2030-05-01T05:30:00Z");
    expect(
      await evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop }),
    ).toMatchObject({
      stopped: 0,
    });
    expect(await stateOf(inst.id)).toBe("running");
  });

  // Issue 12 item 11: the 100 % crossing of the old amount must not start the grace of the raised budget.
  it("counts the grace of a budget raised mid-month from the new crossing, not the old one", async () => {
    const { org, inst, clock } = await spending();
    const b = await createBudget(org.ctx, org.slug, {
      name: "Raised later",
      amountUsd: 10,
      actionAt100: "stop_instances",
      graceMinutes: 30,
    });
    const run = async (at: string) => {
      clock.set(at);
      await meterUsage(worker, { now: clock.now(), orgIds: [org.org.id] });
      return evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop });
    };
    expect(await run("2030-05-01T05:00:00Z")).toMatchObject({ stopped: 0 });
    await updateBudget(org.ctx, org.slug, b.id, {
      name: "Raised later",
      amountUsd: 20,
      actionAt100: "stop_instances",
      graceMinutes: 30,
    });
    expect(await run("2030-05-01T07:00:00Z")).toMatchObject({ stopped: 0 });
    // $20 is reached at 08:00: that is the crossing the grace counts from.
    expect(await run("2030-05-01T08:00:00Z")).toMatchObject({ stopped: 0 });
    const warning = (await mailsTo(org.org.id)).filter((m) => m.subject.includes("' at 100%")).at(-1);
    expect(warning?.subject).toBe("Budget 'Raised later' at 100% — $20.00 of $20.00");
    expect(warning?.textBody).toContain("will be stopped at May 1, 2030, 8:30 AM (UTC)");
    expect(await run("2030-05-01T08:29:00Z")).toMatchObject({ stopped: 0 });
    expect(await stateOf(inst.id)).toBe("running");
    expect(await run("2030-05-01T08:30:00Z")).toMatchObject({ stopped: 1 });
  });

  // Issue 12 item 11: an alert whose chosen recipients have all left went to nobody.
  it("sends to the admins and owners, and says so, when every chosen recipient has left", async () => {
    const { org, clock } = await spending();
    const leaver = await org.as("admin");
    const leaverId = leaver.actor.kind === "user" ? leaver.actor.userId : "";
    await createBudget(org.ctx, org.slug, { name: "Orphaned", amountUsd: 10, recipientUserIds: [leaverId] });
    await getDb().delete(memberships).where(eq(memberships.userId, leaverId));
    await evaluateBudgets(worker, { now: clock.now(), orgIds: [org.org.id], stop: policyStop });
    const mails = await mailsTo(org.org.id);
    expect(mails.length).toBeGreaterThan(0);
    expect(new Set(mails.map((m) => m.toAddress))).toEqual(new Set([org.user.email.toLowerCase()]));
    expect(mails[0]?.textBody).toContain(
      "None of the people chosen to receive this budget's alerts is still in the organization",
    );
    const notice = (await noticesOf(org.org.id)).find((n) => n.kind === "budget.actual");
    expect(notice?.body).toContain("sent to the organization's admins and owners");
  });
});
