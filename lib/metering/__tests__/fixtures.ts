import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import {
  gpuModels,
  instanceEvents,
  instances,
  instanceTypes,
  nodeGpus,
  nodes,
  prices,
  regions,
  reservations,
  usageRecords,
} from "@/lib/db/schema";
import { seedImages } from "@/lib/provisioning";
import { newOrg, type TestClock, type TestOrg } from "@/test/factories";

export { type TestClock, testClock } from "@/test/factories";

export const PRICE_CHANGE_AT = "2030-01-15T12:20:00Z";

/**
 * A catalog of its own (unique GPU model and region), so prices are known to the cent and nothing another
 * test file does can move them: per GPU on-demand $2.00/h, $2.50/h from PRICE_CHANGE_AT; spot $0.80; 1-year
 * reserved $1.20; 1-month $1.50. Types: 1x, 2x and a 3/7 MIG slice. One node with 8 GPUs.
 */
export async function billingCatalog() {
  const db = getDb();
  await db.transaction((tx) => seedImages(tx));
  const id = randomUUID().slice(0, 8);
  const region = `bill-${id}`;
  const gpu = `g${id}`;
  await db.insert(regions).values({
    code: region,
    name: `Billing ${id}`,
    city: "Madrid",
    country: "ES",
    jurisdiction: "EU",
    pue: 1.25,
    gridGco2PerKwh: 200,
  });
  await db.insert(gpuModels).values({
    id: gpu,
    name: `G ${id}`,
    vendor: "NVIDIA",
    memoryGib: 80,
    tdpWatts: 700,
    migProfiles: [{ name: "3g.40gb", slices: 3, memoryGib: 40 }],
  });
  const types = [
    { id: `${gpu}.1x`, gpuCount: 1, migProfile: null, share: 1 },
    { id: `${gpu}.2x`, gpuCount: 2, migProfile: null, share: 2 },
    { id: `${gpu}.mig-3g.40gb`, gpuCount: 1, migProfile: "3g.40gb", share: 3 / 7 },
  ];
  await db.insert(instanceTypes).values(
    types.map((t) => ({
      id: t.id,
      gpuModelId: gpu,
      gpuCount: t.gpuCount,
      migProfile: t.migProfile,
      vcpus: 8,
      ramGib: 64,
      localDiskGib: 500,
    })),
  );
  const change = new Date(PRICE_CHANGE_AT);
  const long = new Date("2020-01-01T00:00:00Z");
  const row = (
    typeId: string,
    model: "on_demand" | "spot" | "reserved_1m" | "reserved_1y",
    usd: number,
    from = long,
    to: Date | null = null,
  ) => ({
    instanceTypeId: typeId,
    regionCode: region,
    pricingModel: model,
    usdPerHour: usd.toFixed(4),
    effectiveFrom: from,
    effectiveTo: to,
  });
  await db
    .insert(prices)
    .values(
      types.flatMap((t) => [
        row(t.id, "on_demand", 2 * t.share, long, change),
        row(t.id, "on_demand", 2.5 * t.share, change),
        row(t.id, "spot", 0.8 * t.share),
        row(t.id, "reserved_1y", 1.2 * t.share),
        row(t.id, "reserved_1m", 1.5 * t.share),
      ]),
    );
  const [node] = await db
    .insert(nodes)
    .values({
      name: `${region}-n0`,
      regionCode: region,
      gpuModelId: gpu,
      gpuCount: 8,
      vcpus: 128,
      ramGib: 1024,
    })
    .returning();
  if (!node) throw new Error("node insert failed");
  await db.insert(nodeGpus).values(Array.from({ length: 8 }, (_, g) => ({ nodeId: node.id, gpuIndex: g })));
  return {
    region,
    gpu,
    nodeId: node.id,
    type1x: `${gpu}.1x`,
    type2x: `${gpu}.2x`,
    typeMig: `${gpu}.mig-3g.40gb`,
  };
}
export type BillingCatalog = Awaited<ReturnType<typeof billingCatalog>>;

/** A fresh organization with its owner on the billing clock; `as(role)` adds a member of that role. */
export const newBillingOrg = (clock: TestClock, label = "bill") => newOrg(label, clock);
export type BillingOrg = TestOrg;

type Pricing = "on_demand" | "spot" | "reserved_1m" | "reserved_1y";

/**
 * An instance written straight to the table with a scripted history: [time, state] pairs become
 * instance_events (from → to, in order) and the row ends in the last state. Metering reads only the events.
 */
export async function scriptedInstance(
  org: BillingOrg,
  cat: BillingCatalog,
  history: Array<[string, string]>,
  opts: {
    type?: string;
    pricing?: Pricing;
    diskGib?: number;
    name?: string;
    projectId?: string;
    autoShutdown?: unknown;
  } = {},
) {
  const type = opts.type ?? cat.type1x;
  const gpuCount = type === cat.type2x ? 2 : 1;
  const slices = type === cat.typeMig ? 3 : 7;
  const first = history[0]?.[0] ?? "2030-01-01T00:00:00Z";
  const lastState = history.at(-1)?.[1] ?? "requested";
  const runningAt = [...history].reverse().find(([, s]) => s === "running")?.[0];
  const [inst] = await getDb()
    .insert(instances)
    .values({
      orgId: org.org.id,
      projectId: opts.projectId ?? org.project.id,
      createdBy: org.user.id,
      name: opts.name ?? `i-${randomUUID().slice(0, 6)}`,
      kind: "notebook",
      state: lastState as typeof instances.$inferInsert.state,
      regionCode: cat.region,
      instanceTypeId: type,
      gpuModelId: cat.gpu,
      gpuCount,
      slicesPerGpu: slices,
      pricingModel: opts.pricing ?? "on_demand",
      imageId: "pytorch-2.5-cuda12.4",
      diskGib: opts.diskGib ?? 100,
      workload: "notebook",
      autoShutdown: (opts.autoShutdown ?? null) as typeof instances.$inferInsert.autoShutdown,
      nodeId: ["running", "stopping", "preempting", "provisioning"].includes(lastState) ? cat.nodeId : null,
      startedAt: runningAt ? new Date(runningAt) : null,
      createdAt: new Date(first),
      updatedAt: new Date(history.at(-1)?.[0] ?? first),
    })
    .returning();
  if (!inst) throw new Error("instance insert failed");
  await addEvents(inst.id, org.org.id, null, history);
  return inst;
}

/** Append [time, state] events to an instance (the previous state is looked up). */
export async function addEvents(
  instanceId: string,
  orgId: string,
  from: string | null,
  history: Array<[string, string]>,
) {
  let prev = from;
  if (prev === null) {
    const [last] = await getDb()
      .select({ s: instanceEvents.toState })
      .from(instanceEvents)
      .where(eq(instanceEvents.instanceId, instanceId))
      .orderBy(sql`${instanceEvents.at} desc, ${instanceEvents.id} desc`)
      .limit(1);
    prev = last?.s ?? null;
  }
  for (const [at, state] of history) {
    await getDb()
      .insert(instanceEvents)
      .values({
        orgId,
        instanceId,
        fromState: prev as typeof instanceEvents.$inferInsert.fromState,
        toState: state as typeof instanceEvents.$inferInsert.toState,
        reason: "scripted",
        actorKind: "system",
        at: new Date(at),
      });
    prev = state;
  }
  const last = history.at(-1);
  if (last) {
    await getDb()
      .update(instances)
      // As the lifecycle does: updated_at moves with every transition, never behind its events.
      .set({ state: last[1] as typeof instances.$inferInsert.state, updatedAt: new Date(last[0]) })
      .where(eq(instances.id, instanceId));
  }
}

export async function addReservation(
  org: BillingOrg,
  cat: BillingCatalog,
  r: { gpuCount: number; term: "reserved_1m" | "reserved_1y"; startsAt: string; endsAt: string },
) {
  const [row] = await getDb()
    .insert(reservations)
    .values({
      orgId: org.org.id,
      gpuModelId: cat.gpu,
      regionCode: cat.region,
      gpuCount: r.gpuCount,
      term: r.term,
      startsAt: new Date(r.startsAt),
      endsAt: new Date(r.endsAt),
      createdAt: new Date(r.startsAt),
    })
    .returning();
  if (!row) throw new Error("reservation insert failed");
  return row;
}

export async function ledgerOf(orgId: string) {
  return getDb().select().from(usageRecords).where(eq(usageRecords.orgId, orgId)).orderBy(usageRecords.id);
}

export function sumAmount(rows: Array<{ amount: string }>): number {
  return rows.reduce((s, r) => s + Number(r.amount), 0);
}
