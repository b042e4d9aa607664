import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { evaluateAutoShutdown, setAutoShutdownPolicy } from "@/lib/autoshutdown";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { auditLog, instanceEvents, instances, metricSamples, notifications, outbox } from "@/lib/db/schema";
import {
  type BillingCatalog,
  newBillingOrg,
  scriptedInstance,
  testClock,
} from "@/lib/metering/__tests__/fixtures";
import { policyStop } from "@/lib/provisioning";

/** Real metric_samples rows every 10 s on GPU 0 at a given utilization, as the telemetry ingest writes them. */
export async function samples(
  instanceId: string,
  orgId: string,
  from: string,
  to: string,
  utilizationPct: number,
) {
  const rows: (typeof metricSamples.$inferInsert)[] = [];
  for (let t = new Date(from).getTime(); t <= new Date(to).getTime(); t += 10_000) {
    rows.push({
      instanceId,
      orgId,
      gpuIndex: 0,
      at: new Date(t),
      utilizationPct,
      memoryUsedGib: 10,
      powerWatts: 100 + utilizationPct * 5,
      temperatureC: 40,
    });
  }
  for (let i = 0; i < rows.length; i += 1000)
    await getDb()
      .insert(metricSamples)
      .values(rows.slice(i, i + 1000));
}

export async function stateOf(id: string) {
  const [row] = await getDb().select().from(instances).where(eq(instances.id, id));
  return row?.state;
}

export async function lastEvent(id: string) {
  const rows = await getDb()
    .select()
    .from(instanceEvents)
    .where(eq(instanceEvents.instanceId, id))
    .orderBy(asc(instanceEvents.at), asc(instanceEvents.id));
  return rows.at(-1);
}

export async function mailsTo(orgId: string) {
  return getDb().select().from(outbox).where(eq(outbox.orgId, orgId)).orderBy(asc(outbox.createdAt));
}

export async function noticesOf(orgId: string) {
  return getDb()
    .select()
    .from(notifications)
    .where(eq(notifications.orgId, orgId))
    .orderBy(asc(notifications.createdAt));
}

export async function auditOf(orgId: string, action: string) {
  return getDb()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), eq(auditLog.action, action)));
}

/**
 * A running instance with a 60-minute max runtime in a fresh organization whose policy allows three 60-minute
 * snoozes, warned by a real pass at 10:50 (it acts at 11:00): the start of every snooze test.
 */
export async function warnedInstance(cat: BillingCatalog, label: string) {
  const org = await newBillingOrg(testClock("2030-05-06T10:50:00Z"), label);
  await setAutoShutdownPolicy(org.ctx, org.slug, { snoozeMinutesMax: 60, maxSnoozes: 3 });
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
    evaluateAutoShutdown(systemCtx("policy"), { now: new Date(at), orgIds: [org.org.id], stop: policyStop });
  expect(await evaluate("2030-05-06T10:50:00Z")).toMatchObject({ warned: 1 });
  return { org, inst, evaluate, member: await org.as("member") };
}
