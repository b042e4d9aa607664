import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  evaluateAutoShutdown,
  setAutoShutdownPolicy,
  setInstanceAutoShutdown,
  snooze,
  validateAutoShutdown,
} from "@/lib/autoshutdown";
import { ForbiddenError, InvalidStateError, NotFoundError, systemCtx, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { instances, projects } from "@/lib/db/schema";
import {
  type BillingCatalog,
  billingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { launch, policyStop } from "@/lib/provisioning";
import { auditOf, lastEvent, stateOf } from "./helpers";

let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});

const spec = (over: Record<string, unknown> = {}) => ({
  kind: "notebook",
  name: `nb-${Math.random().toString(36).slice(2, 8)}`,
  project: "default",
  region: cat.region,
  instanceType: cat.type1x,
  image: "pytorch-2.5-cuda12.4",
  ...over,
});
const fieldsOf = (e: unknown) => Object.keys((e as ValidationError).fieldErrors ?? {});

describe("auto-shutdown policy limits at launch", () => {
  it("lets no member exceed the organization's idle limit or switch idle off, while admins may", async () => {
    const org = await newBillingOrg(testClock("2030-05-06T08:00:00Z"), "pol");
    await setAutoShutdownPolicy(org.ctx, org.slug, {
      defaultIdleMinutes: 30,
      idleMinutesMax: 60,
      idleRequired: true,
      idlePctMin: 5,
    });
    const member = await org.as("member");
    const admin = await org.as("admin");
    const idle = (minutes: number, pct = 5) => ({
      autoShutdown: { idle: { utilizationBelowPct: pct, minutes } },
    });

    const tooLong = await launch(member, org.slug, spec(idle(120))).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(ValidationError);
    expect((tooLong as ValidationError).fieldErrors["autoShutdown.idle.minutes"]).toEqual([
      "Your organization allows at most 60 idle minutes",
    ]);
    expect(
      fieldsOf(await launch(member, org.slug, spec({ autoShutdown: { idle: null } })).catch((e) => e)),
    ).toEqual(["autoShutdown.idle"]);
    expect(fieldsOf(await launch(member, org.slug, spec(idle(30, 2))).catch((e) => e))).toEqual([
      "autoShutdown.idle.utilizationBelowPct",
    ]);
    expect(await getDb().$count(instances, eq(instances.orgId, org.org.id))).toBe(0);

    const ok = await launch(member, org.slug, spec(idle(45)));
    expect(ok.instance.autoShutdown).toEqual({
      idle: { utilizationBelowPct: 5, minutes: 45 },
      maxRuntimeMinutes: null,
      schedule: null,
    });
    const dflt = await launch(member, org.slug, spec());
    expect(dflt.instance.autoShutdown?.idle).toEqual({ utilizationBelowPct: 5, minutes: 30 });
    const byAdmin = await launch(admin, org.slug, spec(idle(240)));
    expect(byAdmin.instance.autoShutdown?.idle?.minutes).toBe(240);
  });

  it("applies the most specific policy and requires a max runtime when a project sets a limit", async () => {
    const org = await newBillingOrg(testClock("2030-05-06T08:00:00Z"), "pol2");
    const [other] = await getDb()
      .insert(projects)
      .values({ orgId: org.org.id, slug: "batch", name: "Batch", createdAt: new Date() })
      .returning();
    if (!other) throw new Error("project");
    await setAutoShutdownPolicy(org.ctx, org.slug, {
      project: "batch",
      defaultMaxRuntimeMinutes: 240,
      maxRuntimeMinutesMax: 480,
    });
    const none = await validateAutoShutdown(
      getDb(),
      org.org.id,
      org.project.id,
      cat.gpu,
      undefined,
      "member",
      "container",
    );
    expect(none).toEqual({ idle: null, maxRuntimeMinutes: null, schedule: null });
    const filled = await validateAutoShutdown(
      getDb(),
      org.org.id,
      other.id,
      cat.gpu,
      undefined,
      "member",
      "container",
    );
    expect(filled.maxRuntimeMinutes).toBe(240);
    const err = await validateAutoShutdown(
      getDb(),
      org.org.id,
      other.id,
      cat.gpu,
      { maxRuntimeMinutes: null },
      "member",
    ).catch((e: unknown) => e);
    expect(fieldsOf(err)).toEqual(["autoShutdown.maxRuntimeMinutes"]);
    const member = await org.as("member");
    await expect(setAutoShutdownPolicy(member, org.slug, { defaultIdleMinutes: 10 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const bad = await setAutoShutdownPolicy(org.ctx, org.slug, { idleRequired: true }).catch(
      (e: unknown) => e,
    );
    expect(fieldsOf(bad)).toEqual(["defaultIdleMinutes"]);
  });

  it("checks edits of a running instance's settings against the same limits", async () => {
    const org = await newBillingOrg(testClock("2030-05-06T08:00:00Z"), "pol3");
    await setAutoShutdownPolicy(org.ctx, org.slug, { defaultIdleMinutes: 30, idleMinutesMax: 60 });
    const inst = await scriptedInstance(org, cat, [["2030-05-06T08:00:00Z", "running"]]);
    const member = await org.as("member");
    const err = await setInstanceAutoShutdown(member, org.slug, inst.id, {
      idle: { utilizationBelowPct: 5, minutes: 90 },
    }).catch((e: unknown) => e);
    expect(fieldsOf(err)).toEqual(["autoShutdown.idle.minutes"]);
    await setInstanceAutoShutdown(member, org.slug, inst.id, {
      idle: { utilizationBelowPct: 10, minutes: 45 },
    });
    expect((await lastEvent(inst.id))?.reason).toBe("auto-shutdown settings changed: idle 45 min under 10 %");
    expect(await auditOf(org.org.id, "instance.autoshutdown_changed")).toHaveLength(1);
    const other = await newBillingOrg(testClock("2030-05-06T08:00:00Z"), "pol4");
    await expect(setInstanceAutoShutdown(other.ctx, other.slug, inst.id, null)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("snooze", () => {
  async function warned(policy: Parameters<typeof setAutoShutdownPolicy>[2]) {
    const org = await newBillingOrg(testClock("2030-05-06T10:50:00Z"), "snz");
    await setAutoShutdownPolicy(org.ctx, org.slug, policy);
    const inst = await scriptedInstance(
      org,
      cat,
      [
        ["2030-05-06T10:00:00Z", "provisioning"],
        ["2030-05-06T10:00:00Z", "running"],
      ],
      { autoShutdown: { idle: null, maxRuntimeMinutes: 60 } },
    );
    const evaluate = (at: string) =>
      evaluateAutoShutdown(systemCtx("policy"), {
        now: new Date(at),
        orgIds: [org.org.id],
        stop: policyStop,
      });
    expect(await evaluate("2030-05-06T10:50:00Z")).toMatchObject({ warned: 1 });
    return { org, inst, evaluate, member: await org.as("member") };
  }

  it("postpones the stop within the policy's limits, on the timeline and in the audit log", async () => {
    const { org, inst, evaluate, member } = await warned({ snoozeMinutesMax: 60, maxSnoozes: 2 });
    const over = await snooze(member, org.slug, inst.id, 90).catch((e: unknown) => e);
    expect(fieldsOf(over)).toEqual(["minutes"]);
    const { snoozedUntil } = await snooze(member, org.slug, inst.id, 30);
    expect(snoozedUntil.toISOString()).toBe("2030-05-06T11:30:00.000Z");
    expect((await lastEvent(inst.id))?.reason).toBe(
      "auto-shutdown postponed by 30 min until 2030-05-06 11:30 UTC",
    );
    expect(await auditOf(org.org.id, "instance.autoshutdown_snoozed")).toHaveLength(1);

    expect(await evaluate("2030-05-06T11:00:00Z")).toMatchObject({ stopped: 0 });
    expect(await evaluate("2030-05-06T11:29:59Z")).toMatchObject({ stopped: 0 });
    await snooze(member, org.slug, inst.id, 15);
    const third = await snooze(member, org.slug, inst.id, 15).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(InvalidStateError);
    expect(await evaluate("2030-05-06T11:44:59Z")).toMatchObject({ stopped: 0 });
    expect(await evaluate("2030-05-06T11:45:00Z")).toMatchObject({ stopped: 1 });
    expect(await stateOf(inst.id)).toBe("stopping");
    await expect(snooze(member, org.slug, inst.id, 15)).rejects.toBeInstanceOf(InvalidStateError);
  });

  it("is refused where the policy does not allow it, to viewers, and for another tenant's instance", async () => {
    const { org, inst, evaluate } = await warned({ allowSnooze: false });
    const member = await org.as("member");
    await expect(snooze(member, org.slug, inst.id, 10)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(snooze(await org.as("viewer"), org.slug, inst.id, 10)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const other = await newBillingOrg(testClock("2030-05-06T10:50:00Z"), "snz2");
    await expect(snooze(other.ctx, other.slug, inst.id, 10)).rejects.toBeInstanceOf(NotFoundError);
    expect(await evaluate("2030-05-06T11:00:00Z")).toMatchObject({ stopped: 1 });
  });
});
