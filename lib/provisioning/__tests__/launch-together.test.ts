import { and, eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, QuotaExceededError, setCheckpointHook, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, instanceEvents, instances, quotas, webhookDeliveries } from "@/lib/db/schema";
import { createWebhookEndpoint } from "@/lib/notify";
import type { TestOrg } from "@/test/factories";
import { coalescer } from "../coalescer";
import { batching, launch, launchGroups } from "../launch";
import { newFleet, newOrg, notebookSpec, type TestFleet } from "./fixtures";

// Launches of different organizations that pile up share one transaction and one insert (launch.ts,
// launchTogether). Each org here has its own user, as tenants do: the events and audit rows must name each
// launch's own actor.

let fleet: TestFleet;
beforeAll(async () => {
  fleet = await newFleet([{ gpus: 8 }]);
});
afterEach(() => {
  setCheckpointHook(null);
  batching.on = true;
});

async function orgs(n: number): Promise<TestOrg[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => newOrg(`together-${i}`)));
}

/** `perOrg` launches for each organization, all started at once (so most wait and go together). */
function launchAll(os: TestOrg[], perOrg: number, spec: (o: TestOrg, k: number) => Record<string, unknown>) {
  return Promise.allSettled(
    Array.from({ length: perOrg }).flatMap((_, k) => os.map((o) => launch(o.ctx, o.slug, spec(o, k)))),
  );
}

/** A promise the first run waits on, so the requests after it queue up behind it. */
function held(): { gate: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  return { gate, release };
}

describe("coalescer", () => {
  it("runs a request alone at once while fewer than maxInFlight run", async () => {
    const ones: number[] = [];
    const c = coalescer<number, number>({
      maxMembers: 4,
      maxInFlight: 2,
      keyOf: String,
      runOne: async (i) => {
        ones.push(i);
        return i * 10;
      },
      runMany: async () => {
        throw new Error("not grouped when quiet");
      },
    });
    expect(await c.submit(1)).toBe(10);
    expect(await c.submit(2)).toBe(20);
    expect(ones).toEqual([1, 2]);
    expect(c.stats()).toEqual({ groups: 0, grouped: 0, largest: 0 });
  });

  it("groups the waiting requests oldest first, up to maxMembers, never two of one key", async () => {
    const groups: string[][] = [];
    const { gate, release } = held();
    const c = coalescer<string, string>({
      maxMembers: 3,
      maxInFlight: 1,
      keyOf: (s) => s.slice(0, 1),
      runOne: async (s) => {
        await gate;
        groups.push([s]);
        return s;
      },
      runMany: async (items) => {
        groups.push(items);
        return items.map((s) =>
          s === "c1"
            ? { status: "rejected", reason: new Error("c1 refused") }
            : { status: "fulfilled", value: s },
        );
      },
    });
    const all = ["a0", "a1", "b1", "a2", "c1", "d1", "b2"].map((s) =>
      c.submit(s).catch((e: Error) => e.message),
    );
    release();
    expect(await Promise.all(all)).toEqual(["a0", "a1", "b1", "a2", "c1 refused", "d1", "b2"]);
    // a0 alone (nothing waited); then a1, b1 and c1 (a2 waits: a is in the group); then a2, d1, b2.
    expect(groups).toEqual([["a0"], ["a1", "b1", "c1"], ["a2", "d1", "b2"]]);
    expect(c.stats()).toEqual({ groups: 2, grouped: 6, largest: 3 });
  });

  it("refuses every request of a group whose run throws", async () => {
    const { gate, release } = held();
    const c = coalescer<number, number>({
      maxMembers: 8,
      maxInFlight: 1,
      keyOf: String,
      runOne: async (i) => {
        await gate;
        return i;
      },
      runMany: async () => {
        throw new Error("broken");
      },
    });
    const all = [1, 2, 3].map((i) => c.submit(i).catch((e: Error) => e.message));
    release();
    expect(await Promise.all(all)).toEqual([1, "broken", "broken"]);
  });
});

describe("launches that go together", () => {
  it("write each launch as it would alone: its row, two events and audit row by its own user, its webhooks", async () => {
    const os = await orgs(12);
    const hooked = os[5] as TestOrg;
    await createWebhookEndpoint(hooked.ctx, hooked.slug, {
      url: "https://hooks.example.com/together",
      events: ["instance.state_changed"],
    });
    const before = launchGroups();
    const results = await launchAll(os, 2, (o, k) => notebookSpec(fleet.region, { name: `${o.slug}-${k}` }));
    const after = launchGroups();
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    // They did go together (most of the 24 waited behind the first four).
    expect(after.groups).toBeGreaterThan(before.groups);
    expect(after.largest).toBeGreaterThan(1);
    const db = getDb();
    for (const o of os) {
      const rows = await db.select().from(instances).where(eq(instances.orgId, o.org.id));
      expect(rows.map((r) => r.name).sort()).toEqual([`${o.slug}-0`, `${o.slug}-1`]);
      expect(rows.every((r) => r.state === "queued" && r.createdBy === o.user.id)).toBe(true);
      const ids = rows.map((r) => r.id);
      const events = await db.select().from(instanceEvents).where(inArray(instanceEvents.instanceId, ids));
      expect(events).toHaveLength(4);
      expect(
        events.every((e) => e.actorUserId === o.user.id && e.actorKind === "user" && e.orgId === o.org.id),
      ).toBe(true);
      expect(events.map((e) => `${e.fromState}>${e.toState}`).sort()).toEqual([
        "null>requested",
        "null>requested",
        "requested>queued",
        "requested>queued",
      ]);
      const audits = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.orgId, o.org.id), eq(auditLog.action, "instance.launched")));
      expect(audits.map((a) => a.targetId).sort()).toEqual([...ids].sort());
      expect(audits.every((a) => a.actorUserId === o.user.id && a.actorKind === "user")).toBe(true);
    }
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.orgId, hooked.org.id));
    // requested → queued for each of its two launches; no other organization's.
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.eventType === "instance.state_changed")).toBe(true);
  });

  it("never lets a group overshoot a quota: each organization gets exactly what its quota holds", async () => {
    const os = await orgs(10);
    await getDb()
      .insert(quotas)
      .values(os.map((o) => ({ orgId: o.org.id, gpuModelId: "h100", regionCode: fleet.region, maxGpus: 2 })));
    const before = launchGroups();
    // Each organization's five one after the other, so the waiting queue holds several of one organization
    // side by side: a group takes one of them and leaves the rest for later groups.
    const results = await Promise.allSettled(
      os.flatMap((o) => Array.from({ length: 5 }, () => launch(o.ctx, o.slug, notebookSpec(fleet.region)))),
    );
    expect(launchGroups().groups).toBeGreaterThan(before.groups);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(30);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof QuotaExceededError)).toBe(
      true,
    );
    for (const o of os) {
      expect(await getDb().$count(instances, eq(instances.orgId, o.org.id))).toBe(2);
    }
  });

  it("refuses a bad launch alone: the others in its group are written, it writes nothing", async () => {
    const os = await orgs(10);
    const before = launchGroups();
    const fallbacks = batching.fallbacks;
    const results = await launchAll(os, 1, (o) => {
      const i = os.indexOf(o);
      if (i === 3) return notebookSpec(fleet.region, { project: "no-such-project" });
      if (i === 6) return notebookSpec(fleet.region, { image: "no-such-image" });
      return notebookSpec(fleet.region);
    });
    expect(launchGroups().groups).toBeGreaterThan(before.groups);
    // Refused in the group, not by running the group again alone.
    expect(batching.fallbacks).toBe(fallbacks);
    results.forEach((r, i) => {
      if (i === 3) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(NotFoundError);
      else if (i === 6) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ValidationError);
      else expect(r.status).toBe("fulfilled");
    });
    const counts = await Promise.all(os.map((o) => getDb().$count(instances, eq(instances.orgId, o.org.id))));
    expect(counts).toEqual([1, 1, 1, 0, 1, 1, 0, 1, 1, 1]);
    const audits = await getDb().$count(
      auditLog,
      and(
        inArray(auditLog.orgId, [os[3]?.org.id ?? "", os[6]?.org.id ?? ""]),
        eq(auditLog.action, "instance.launched"),
      ),
    );
    expect(audits).toBe(0);
  });

  it("runs every launch of a group again alone when the group fails: none lost, none written twice", async () => {
    const os = await orgs(10);
    let failures = 0;
    setCheckpointHook((name) => {
      if (name === "launch.together.written" && failures === 0) {
        failures++;
        throw new Error("the group's transaction breaks before COMMIT");
      }
    });
    const fallbacks = batching.fallbacks;
    const results = await launchAll(os, 1, (o) => notebookSpec(fleet.region, { name: `again-${o.slug}` }));
    expect(failures).toBe(1);
    expect(batching.fallbacks).toBe(fallbacks + 1);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    for (const o of os) {
      const rows = await getDb()
        .select({ id: instances.id })
        .from(instances)
        .where(eq(instances.orgId, o.org.id));
      expect(rows).toHaveLength(1);
      const events = await getDb().$count(instanceEvents, eq(instanceEvents.instanceId, rows[0]?.id ?? ""));
      expect(events).toBe(2);
    }
  });

  it("with coalescing off, the same launches each run alone", async () => {
    batching.on = false;
    const os = await orgs(8);
    const before = launchGroups();
    const results = await launchAll(os, 1, () => notebookSpec(fleet.region));
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(launchGroups()).toEqual(before);
    const n = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from instances where org_id = any(${`{${os.map((o) => o.org.id).join(",")}}`}::uuid[])`,
    );
    expect(n.rows[0]?.n).toBe(8);
  });
});
