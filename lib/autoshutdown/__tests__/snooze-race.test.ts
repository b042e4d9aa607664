import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { actOnWarning, snooze } from "@/lib/autoshutdown";
import { InvalidStateError, setCheckpointHook } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { shutdownWarnings } from "@/lib/db/schema";
import { type BillingCatalog, billingCatalog } from "@/lib/metering/__tests__/fixtures";
import { policyStop } from "@/lib/provisioning";
import { stateOf, warnedInstance } from "./helpers";

// Issue 12 item 9: the pass decided on warnings read before locking, and locked warning → instance while
// snooze locks instance → warnings. A snooze during the pass must win or fail cleanly: never "snoozed" and
// stopped anyway, never a deadlock.
let cat: BillingCatalog;
beforeAll(async () => {
  cat = await billingCatalog();
});
afterEach(() => setCheckpointHook(null));

const warned = () => warnedInstance(cat, "race");

/** Waits (briefly) until some backend is blocked on a lock held by a backend idle in its transaction. */
async function someoneBlocked(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const r = await getDb().execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity w
      where cardinality(pg_blocking_pids(w.pid)) > 0 and w.datname = current_database()
        and exists (select 1 from pg_stat_activity b where b.pid = any(pg_blocking_pids(w.pid))
                    and b.state = 'idle in transaction' and b.query ilike '%shutdown_warnings%')`);
    if ((r.rows[0]?.n ?? 0) > 0) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe("auto-shutdown against a concurrent snooze", () => {
  it("does not stop when the snooze committed after the pass read the warning", async () => {
    const { org, inst, member } = await warned();
    const [stale] = await getDb()
      .select()
      .from(shutdownWarnings)
      .where(eq(shutdownWarnings.instanceId, inst.id));
    if (!stale) throw new Error("no warning");
    const { snoozedUntil } = await snooze(member, org.slug, inst.id, 30);
    expect(snoozedUntil.toISOString()).toBe("2030-05-06T11:30:00.000Z");
    // The pass acts on what it read before the snooze: the lock must make it look again.
    const ri = { id: inst.id, orgId: org.org.id, name: inst.name, createdBy: null };
    expect(
      await actOnWarning(undefined, {
        warning: stale,
        inst: ri,
        detail: {},
        now: new Date("2030-05-06T11:00:00Z"),
        stop: policyStop,
      }),
    ).toBe(false);
    expect(await stateOf(inst.id)).toBe("running");
  });

  it("a snooze made while the pass is between its reads and its locks wins", async () => {
    const { org, inst, evaluate, member } = await warned();
    let snoozed: Date | null = null;
    setCheckpointHook(async (name) => {
      if (name !== "autoshutdown.pass.read" || snoozed) return;
      snoozed = (await snooze(member, org.slug, inst.id, 30)).snoozedUntil;
    });
    expect(await evaluate("2030-05-06T11:00:00Z")).toMatchObject({ stopped: 0, failed: 0 });
    expect(snoozed).not.toBeNull();
    expect(await stateOf(inst.id)).toBe("running");
  });

  it("a snooze arriving while the pass holds its locks waits, then fails cleanly: no deadlock", async () => {
    const { org, inst, evaluate, member } = await warned();
    let attempt: Promise<unknown> | null = null;
    setCheckpointHook(async (name) => {
      if (name !== "autoshutdown.act.locked" || attempt) return;
      attempt = snooze(member, org.slug, inst.id, 30).catch((e: unknown) => e);
      await someoneBlocked();
    });
    expect(await evaluate("2030-05-06T11:00:00Z")).toMatchObject({ stopped: 1, failed: 0 });
    expect(await attempt).toBeInstanceOf(InvalidStateError);
    expect(await stateOf(inst.id)).toBe("stopping");
  });
});
