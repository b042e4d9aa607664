import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, QuotaExceededError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  auditLog,
  budgets,
  instanceEvents,
  instances,
  organizations,
  quotas,
  reservations,
} from "@/lib/db/schema";
import { DEFAULT_QUOTA_GPUS, launch } from "@/lib/provisioning";
import { newFleet, newOrg, notebookSpec, type TestFleet } from "./fixtures";

let fleet: TestFleet;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
});

async function count(orgId: string) {
  return getDb().$count(instances, eq(instances.orgId, orgId));
}

describe("launch", () => {
  it("records the instance requested → queued with two events and returns at once", async () => {
    const o = await newOrg();
    const { instance, replayed } = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { name: "first" }));
    expect(replayed).toBe(false);
    expect(instance.state).toBe("queued");
    expect(instance.queuedAt?.toISOString()).toBe(o.clock.now().toISOString());
    expect(instance.gpuModelId).toBe("h100");
    expect(instance.slicesPerGpu).toBe(7);
    expect(instance.workload).toBe("notebook");
    const events = await getDb()
      .select()
      .from(instanceEvents)
      .where(eq(instanceEvents.instanceId, instance.id))
      .orderBy(instanceEvents.id);
    expect(events.map((e) => [e.fromState, e.toState, e.actorKind, e.actorUserId])).toEqual([
      [null, "requested", "user", o.user.id],
      ["requested", "queued", "user", o.user.id],
    ]);
    // The row launch returns is the stored row, decoded as drizzle reads it (the insert is raw SQL).
    const [stored] = await getDb().select().from(instances).where(eq(instances.id, instance.id));
    expect(instance).toEqual(stored);
    // The audit row is written by the same statement as the row and its events (one round trip).
    const audit = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, o.org.id), eq(auditLog.targetId, instance.id)));
    expect(
      audit.map((a) => [a.action, a.actorKind, a.actorUserId, a.targetType, a.at.toISOString()]),
    ).toEqual([["instance.launched", "user", o.user.id, "instance", o.clock.now().toISOString()]]);
    expect(audit[0]?.data).toEqual({
      name: "first",
      instanceType: instance.instanceTypeId,
      region: fleet.region,
      pricingModel: "on_demand",
    });
  });

  it("returns a container's command, args, env, port and limits as stored", async () => {
    const o = await newOrg();
    const { instance } = await launch(o.ctx, o.slug, {
      ...notebookSpec(fleet.region, { name: "ctr" }),
      kind: "container",
      image: "pytorch-2.5-cuda12.4",
      command: "python -m serve",
      args: ["--port", "8000", 'it\'s "quoted"'],
      env: { MODE: "prod", EMPTY: "" },
      exposedPort: 8000,
      maxRuntimeMinutes: 90,
      diskGib: 120,
    });
    const [stored] = await getDb().select().from(instances).where(eq(instances.id, instance.id));
    expect(instance).toEqual(stored);
    expect([instance.command, instance.args, instance.env]).toEqual([
      "python -m serve",
      ["--port", "8000", 'it\'s "quoted"'],
      { MODE: "prod", EMPTY: "" },
    ]);
    expect([instance.exposedPort, instance.maxRuntimeMinutes, instance.diskGib, instance.workload]).toEqual([
      8000,
      90,
      120,
      "inference",
    ]);
    expect(instance.createdAt).toBeInstanceOf(Date);
  });

  it.each([
    ["kind", { kind: "vm" }],
    ["name", { name: "Bad_Name" }],
    ["name", { name: "x".repeat(64) }],
    ["name", { name: "" }],
    ["region", { region: "nowhere-1" }],
    ["instanceType", { instanceType: "h100.3x" }],
    ["pricingModel", { pricingModel: "free" }],
    ["image", { image: "no-such-image" }],
    ["image", { image: "cuda-12.6-base" }],
    ["image", { image: "pytorch-2.5-rocm6.2" }],
    ["diskGib", { diskGib: 5 }],
    ["diskGib", { diskGib: 99999 }],
    ["maxRuntimeMinutes", { maxRuntimeMinutes: 0 }],
    ["priority", { priority: 1000 }],
    ["command", { command: "python train.py" }],
    ["exposedPort", { kind: "container", exposedPort: 70000 }],
    ["env.1BAD", { kind: "container", env: { "1BAD": "x" } }],
    ["autoShutdown.schedule.cron", { autoShutdown: { schedule: { cron: "not cron", timeZone: "UTC" } } }],
    [
      "autoShutdown.schedule.timeZone",
      { autoShutdown: { schedule: { cron: "0 20 * * *", timeZone: "Mars/Base" } } },
    ],
    ["autoShutdown.idle.minutes", { autoShutdown: { idle: { utilizationBelowPct: 5, minutes: 1 } } }],
  ])("refuses a bad %s with a field error and writes nothing", async (field, over) => {
    const o = await newOrg();
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region, over)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys((err as ValidationError).fieldErrors)).toContain(field);
    expect(await count(o.org.id)).toBe(0);
  });

  it("lets a member launch but refuses a viewer, and only admins raise priority", async () => {
    const o = await newOrg();
    const member = await o.as("member");
    const viewer = await o.as("viewer");
    await expect(launch(member, o.slug, notebookSpec(fleet.region))).resolves.toBeTruthy();
    await expect(launch(viewer, o.slug, notebookSpec(fleet.region))).rejects.toBeInstanceOf(ForbiddenError);
    const err = await launch(member, o.slug, notebookSpec(fleet.region, { priority: 10 })).catch((e) => e);
    expect((err as ValidationError).fieldErrors.priority?.[0]).toMatch(/Only admins and owners/);
    await expect(launch(member, o.slug, notebookSpec(fleet.region, { priority: -10 }))).resolves.toBeTruthy();
    const admin = await o.as("admin");
    const r = await launch(admin, o.slug, notebookSpec(fleet.region, { priority: 10 }));
    expect(r.instance.priority).toBe(10);
    expect(await count(o.org.id)).toBe(3);
  });

  it("treats another organization (and its projects) as not found", async () => {
    const a = await newOrg();
    const b = await newOrg();
    await expect(launch(a.ctx, b.slug, notebookSpec(fleet.region))).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      launch(a.ctx, a.slug, notebookSpec(fleet.region, { project: b.project.id })),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await count(a.org.id)).toBe(0);
  });

  it("enforces the organization's data-residency policy and names it", async () => {
    const o = await newOrg();
    await getDb()
      .update(organizations)
      .set({ allowedJurisdictions: ["UK", "US"] })
      .where(eq(organizations.id, o.org.id));
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region)).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors.region?.[0]).toMatch(
      /data-residency policy allows only UK, US/,
    );
    expect(await count(o.org.id)).toBe(0);
    await getDb()
      .update(organizations)
      .set({ allowedJurisdictions: ["EU"] })
      .where(eq(organizations.id, o.org.id));
    await expect(launch(o.ctx, o.slug, notebookSpec(fleet.region))).resolves.toBeTruthy();
  });

  it("refuses reserved without a reservation with room, and uses the reservation's term when there is one", async () => {
    const o = await newOrg();
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { pricingModel: "reserved" })).catch(
      (e) => e,
    );
    expect((err as ValidationError).fieldErrors.pricingModel?.[0]).toMatch(/no active reservation/);
    await getDb()
      .insert(reservations)
      .values({
        orgId: o.org.id,
        gpuModelId: "h100",
        regionCode: fleet.region,
        gpuCount: 1,
        term: "reserved_1m",
        startsAt: new Date(o.clock.now().getTime() - 86_400_000),
        endsAt: new Date(o.clock.now().getTime() + 86_400_000),
      });
    const ok = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { pricingModel: "reserved" }));
    expect(ok.instance.pricingModel).toBe("reserved_1m");
    // The one reserved GPU is now covered; a second reserved launch has no room.
    const again = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { pricingModel: "reserved" })).catch(
      (e) => e,
    );
    expect(again).toBeInstanceOf(ValidationError);
    expect(await count(o.org.id)).toBe(1);
  });

  it("refuses an offering with no current price in the region", async () => {
    const o = await newOrg();
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "l4.1x" })).catch(
      (e) => e,
    );
    expect((err as ValidationError).fieldErrors.instanceType?.[0]).toMatch(/not offered on-demand/);
  });

  it("stops at the quota with a message naming the limit, the use and how to ask for more", async () => {
    const o = await newOrg();
    await getDb()
      .insert(quotas)
      .values({ orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 5 });
    await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.4x" }));
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.2x" })).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(QuotaExceededError);
    const q = err as QuotaExceededError;
    expect(q.message).toMatch(/may hold 5 GPUs there, 4 are already queued or in use, and this needs 2 more/);
    expect(q.message).toMatch(/ask an organization admin to request more quota/);
    expect(q.details).toMatchObject({ limitGpus: 5, usedGpus: 4, requestedGpus: 2 });
    expect(await count(o.org.id)).toBe(1);
    // A MIG slice counts as its share of a GPU, so 3/7 still fits in the 1 GPU left.
    await expect(
      launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.mig-3g.40gb" })),
    ).resolves.toBeTruthy();
  });

  it("applies the platform default quota when the organization has no quota row", async () => {
    const o = await newOrg();
    await launch(o.ctx, o.slug, notebookSpec(fleet.region, { instanceType: "h100.8x" }));
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region)).catch((e) => e);
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).details.limitGpus).toBe(DEFAULT_QUOTA_GPUS);
  });

  it("refuses a launch when a budget that blocks launches is used up, and writes nothing", async () => {
    const o = await newOrg();
    await getDb().insert(budgets).values({
      orgId: o.org.id,
      name: "Zero",
      amountUsd: "0",
      actionAt100: "block_launches",
      createdAt: o.clock.now(),
      updatedAt: o.clock.now(),
    });
    const err = await launch(o.ctx, o.slug, notebookSpec(fleet.region)).catch((e) => e);
    expect((err as Error).message).toMatch(/budget 'Zero' is used up/);
    expect(await count(o.org.id)).toBe(0);
  });

  it("returns the same instance for the same idempotency key, sequentially and concurrently", async () => {
    const o = await newOrg();
    const spec = notebookSpec(fleet.region, { idempotencyKey: "key-1" });
    const a = await launch(o.ctx, o.slug, spec);
    const b = await launch(o.ctx, o.slug, spec);
    expect(b.instance.id).toBe(a.instance.id);
    expect(b.replayed).toBe(true);
    const spec2 = notebookSpec(fleet.region, { idempotencyKey: "key-2" });
    const many = await Promise.all(Array.from({ length: 8 }, () => launch(o.ctx, o.slug, spec2)));
    expect(new Set(many.map((r) => r.instance.id)).size).toBe(1);
    expect(many.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await count(o.org.id)).toBe(2);
    const n = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from instance_events where instance_id = ${a.instance.id}`,
    );
    expect(n.rows[0]?.n).toBe(2);
  });

  it("refuses a reused idempotency key for a different launch", async () => {
    const o = await newOrg();
    await launch(o.ctx, o.slug, notebookSpec(fleet.region, { idempotencyKey: "k", name: "one" }));
    await expect(
      launch(o.ctx, o.slug, notebookSpec(fleet.region, { idempotencyKey: "k", name: "two" })),
    ).rejects.toThrow(/already used for a different launch/);
  });
});
