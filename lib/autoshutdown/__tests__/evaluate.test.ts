import { beforeAll, describe, expect, it } from "vitest";
import { evaluateAutoShutdown } from "@/lib/autoshutdown";
import { systemCtx } from "@/lib/core";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { policyStop } from "@/lib/provisioning";
import { auditOf, lastEvent, mailsTo, noticesOf, samples, stateOf } from "./helpers";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const worker = systemCtx("policy");
const running = (at: string): Array<[string, string]> => [
  [at, "requested"],
  [at, "queued"],
  [at, "provisioning"],
  [at, "running"],
];

async function notebook(autoShutdown: unknown, since = "2030-05-06T08:00:00Z") {
  const org = await newBillingOrg(testClock(since), "idle");
  const inst = await scriptedInstance(org, cat, running(since), { autoShutdown, name: "nb-train" });
  const evaluate = (at: string) =>
    evaluateAutoShutdown(worker, { now: new Date(at), orgIds: [org.org.id], stop: policyStop });
  return { org, inst, evaluate };
}

describe("idle shutdown", () => {
  it("warns 10 minutes ahead, then stops with the reason on the timeline", async () => {
    const { org, inst, evaluate } = await notebook({ idle: { utilizationBelowPct: 5, minutes: 30 } });
    await samples(inst.id, org.org.id, "2030-05-06T08:00:00Z", "2030-05-06T08:30:00Z", 80);
    await samples(inst.id, org.org.id, "2030-05-06T08:30:10Z", "2030-05-06T09:10:00Z", 2);

    expect(await evaluate("2030-05-06T08:45:00Z")).toMatchObject({ warned: 0, stopped: 0 });
    expect(await evaluate("2030-05-06T08:50:00Z")).toMatchObject({ warned: 1, stopped: 0 });
    expect(await evaluate("2030-05-06T08:51:00Z")).toMatchObject({ warned: 0, stopped: 0 });
    const [mail] = await mailsTo(org.org.id);
    expect(mail?.toAddress).toBe(org.user.email);
    expect(mail?.subject).toBe(
      "'nb-train' will be stopped at May 6, 2030, 9:00 AM (UTC): idle for 30 min under 5% GPU utilization",
    );
    expect(mail?.textBody).toContain("snooze the shutdown");
    expect((await noticesOf(org.org.id)).map((n) => n.kind)).toEqual(["autoshutdown.warning"]);

    expect(await evaluate("2030-05-06T08:59:50Z")).toMatchObject({ stopped: 0 });
    expect(await stateOf(inst.id)).toBe("running");
    expect(await evaluate("2030-05-06T09:00:00Z")).toMatchObject({ stopped: 1 });
    expect(await stateOf(inst.id)).toBe("stopping");
    const ev = await lastEvent(inst.id);
    expect(ev).toMatchObject({
      fromState: "running",
      toState: "stopping",
      reason: "auto-shutdown: idle for 30 min under 5 % GPU",
      actorKind: "policy",
    });
    expect(ev?.at.toISOString()).toBe("2030-05-06T09:00:00.000Z");
    const [audit] = await auditOf(org.org.id, "instance.stopped");
    expect(audit).toMatchObject({ actorKind: "system", targetId: inst.id });
    expect(audit?.data).toMatchObject({
      rule: "idle",
      reason: "auto-shutdown: idle for 30 min under 5 % GPU",
    });
    expect((await noticesOf(org.org.id)).map((n) => n.kind)).toEqual([
      "autoshutdown.warning",
      "autoshutdown.stopped",
    ]);
    expect(await evaluate("2030-05-06T09:01:00Z")).toMatchObject({ stopped: 0, warned: 0 });
  });

  it("cancels the warning when the GPU gets busy again, and does not stop", async () => {
    const { org, inst, evaluate } = await notebook({ idle: { utilizationBelowPct: 5, minutes: 30 } });
    await samples(inst.id, org.org.id, "2030-05-06T08:00:00Z", "2030-05-06T08:30:00Z", 80);
    await samples(inst.id, org.org.id, "2030-05-06T08:30:10Z", "2030-05-06T08:54:50Z", 2);
    await samples(inst.id, org.org.id, "2030-05-06T08:55:00Z", "2030-05-06T09:10:00Z", 60);
    expect(await evaluate("2030-05-06T08:50:00Z")).toMatchObject({ warned: 1 });
    expect(await evaluate("2030-05-06T08:56:00Z")).toMatchObject({ cancelled: 1 });
    expect(await evaluate("2030-05-06T09:00:00Z")).toMatchObject({ stopped: 0 });
    expect(await stateOf(inst.id)).toBe("running");
  });

  it("does not call an instance idle without fresh telemetry", async () => {
    const { org, inst, evaluate } = await notebook({ idle: { utilizationBelowPct: 5, minutes: 30 } });
    await samples(inst.id, org.org.id, "2030-05-06T08:00:00Z", "2030-05-06T08:20:00Z", 1);
    expect(await evaluate("2030-05-06T09:30:00Z")).toMatchObject({ warned: 0, stopped: 0 });
  });
});

describe("max runtime and schedule", () => {
  it("stops at the max runtime after warning", async () => {
    const { inst, evaluate } = await notebook({ idle: null, maxRuntimeMinutes: 120 }, "2030-05-06T10:00:00Z");
    expect(await evaluate("2030-05-06T11:49:00Z")).toMatchObject({ warned: 0 });
    expect(await evaluate("2030-05-06T11:50:00Z")).toMatchObject({ warned: 1 });
    expect(await evaluate("2030-05-06T12:00:00Z")).toMatchObject({ stopped: 1 });
    expect((await lastEvent(inst.id))?.reason).toBe("auto-shutdown: max runtime of 120 min reached");
  });

  it("fires a Europe/Madrid schedule at 20:00 local: 18:00 UTC in summer", async () => {
    const { inst, evaluate } = await notebook(
      { idle: null, schedule: { cron: "0 20 * * *", timeZone: "Europe/Madrid" } },
      "2030-07-01T09:00:00Z",
    );
    expect(await evaluate("2030-07-01T17:49:00Z")).toMatchObject({ warned: 0 });
    expect(await evaluate("2030-07-01T17:50:00Z")).toMatchObject({ warned: 1 });
    expect(await evaluate("2030-07-01T17:59:59Z")).toMatchObject({ stopped: 0 });
    expect(await evaluate("2030-07-01T18:00:00Z")).toMatchObject({ stopped: 1 });
    const ev = await lastEvent(inst.id);
    expect(ev?.reason).toBe("auto-shutdown: scheduled stop (0 20 * * *, Europe/Madrid)");
    expect(ev?.at.toISOString()).toBe("2030-07-01T18:00:00.000Z");
  });

  it("gives the stop its full warning even when first seen late", async () => {
    const { evaluate } = await notebook({ idle: null, maxRuntimeMinutes: 60 }, "2030-05-06T10:00:00Z");
    // The worker was down: first look 5 minutes after the due time; the stop comes 10 minutes after the warning.
    expect(await evaluate("2030-05-06T11:05:00Z")).toMatchObject({ warned: 1, stopped: 0 });
    expect(await evaluate("2030-05-06T11:14:00Z")).toMatchObject({ stopped: 0 });
    expect(await evaluate("2030-05-06T11:15:00Z")).toMatchObject({ stopped: 1 });
  });
});
