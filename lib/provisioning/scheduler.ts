import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, checkpoint, nowOf } from "@/lib/core";
import { readDb, type Tx, withReadCommittedTx } from "@/lib/db/client";
import { regionsOverQuota } from "@/lib/quotas";
import { why } from "./event-reasons";
import { loadRegionHolders, loadRegionNodes } from "./fleet-state";
import { applyTransitions, giveNotice, type Transition } from "./lifecycle";
import { loadAllOfferings } from "./offerings";
import { type Decisions, type Placement, type PRequest, placementSteps, type Reservation } from "./placement";
import { type InstanceFields, toProviderInstance } from "./provider-instance";
import { attachConfiguredEngines, clusterPlacedRegions, getProvider, type ProvisionPlan } from "./providers";
import { clearBorrowMarks, gateRegion, writeQueueReasons } from "./quota-gate";
import { advisoryXactLock, textArray, uuidArray } from "./sql";
import type { Instance } from "./types";

/** The notice of a spot interruption, a borrowed-capacity reclaim, a drain or a preemption: 2 minutes, as AWS gives. */
export const DEFAULT_SPOT_NOTICE_SECONDS = 120;

/**
 * FORJA_SPOT_NOTICE_SECONDS (15–3600) sets the notice for a fleet whose operator promises another one (GCP gives
 * 30 s); a value out of range, or none, is the default. Read once, when the process starts.
 */
export function spotNoticeMsFrom(raw: string | undefined): number {
  const v = raw === undefined || raw === "" ? Number.NaN : Number(raw);
  return (Number.isInteger(v) && v >= 15 && v <= 3600 ? v : DEFAULT_SPOT_NOTICE_SECONDS) * 1000;
}

/** How long a spot instance keeps running after the scheduler reclaims its capacity. */
export const SPOT_NOTICE_MS = spotNoticeMsFrom(process.env.FORJA_SPOT_NOTICE_SECONDS);

export type SchedulerResult = {
  regions: string[];
  placed: number;
  preempted: number;
  /** Borrowed instances reclaimed (with notice) because a lender of their cohort needs its nominal. */
  reclaimed: number;
  /** Heads of queues that could not start now, with the node and time reserved for them. */
  reservations: Reservation[];
};

/**
 * One scheduler tick: for each region with queued work (or the one given), under that region's lock, place
 * what fits and preempt spot capacity where on-demand/reserved work needs it (placement.ts has the rules).
 * Several workers may tick at once: the region lock makes them take turns, so a GPU is never given twice.
 */
export async function placeQueuedInstances(
  ctx: Ctx,
  opts: { regionCode?: string; now?: Date; spotNoticeMs?: number } = {},
): Promise<SchedulerResult> {
  await attachConfiguredEngines();
  const now = opts.now ?? nowOf(ctx);
  // A region attached to a cluster-placed engine is placed by that engine's scheduler, never here.
  const external = new Set(clusterPlacedRegions());
  // Regions with queued work, and those where an organization holds more than an operator's lowered limit
  // (its gate reclaims with nothing queued).
  const regions = (
    opts.regionCode
      ? [opts.regionCode]
      : [
          ...new Set([
            ...(
              await readDb(ctx).execute<{ region_code: string }>(
                sql`select distinct region_code from instances where state = 'queued' order by region_code`,
              )
            ).rows.map((r) => r.region_code),
            ...(await regionsOverQuota(readDb(ctx))),
          ]),
        ].sort()
  ).filter((r) => !external.has(r));
  const result: SchedulerResult = { regions, placed: 0, preempted: 0, reclaimed: 0, reservations: [] };
  for (const region of regions) {
    const d = await withReadCommittedTx(ctx.tx, (tx) =>
      placeRegion(tx, { ...ctx, tx, now: () => now }, region, now, opts.spotNoticeMs ?? SPOT_NOTICE_MS),
    );
    result.placed += d.placements.length;
    result.preempted += d.preemptions.length;
    result.reclaimed += d.reclaimed;
    result.reservations.push(...d.reservations);
  }
  return result;
}

/** The placement lock of a region; fleet changes (drain, node failure) take it too. */
export async function lockRegionPlacement(tx: Tx, regionCode: string): Promise<void> {
  await tx.execute(advisoryXactLock("forja:placement", regionCode));
}

/**
 * How many placements a tick's transitions statements carry: the first goes as soon as the planner has decided
 * this many (the database starts writing early), the next ones each carry this many more (each is written
 * while the planner and the JavaScript work on the next), and the last whatever is left.
 */
const FIRST_TRANSITIONS = 600;
const NEXT_TRANSITIONS = 2_000;

/** A queued instance as the tick reads it: what the gate, the provider's plan and the planner need. */
type QueuedRow = InstanceFields & Pick<Instance, "projectId" | "maxRuntimeMinutes" | "pricingModel">;

/**
 * The region's queue, locked (FOR UPDATE SKIP LOCKED: an instance its user is cancelling right now waits for
 * the next tick), in the planner's order: model, priority, then first queued first. Only the columns the gate,
 * the provider's plan and the planner read (not the command, env, connection…), as plain SQL mapped by hand:
 * the query builder's per-column mapping of 10,000 rows took ~70 ms of the tick's JavaScript before anything
 * was planned (issue 13, measured: 75–120 ms against 35–50 ms for the same rows).
 */
async function readQueue(tx: Tx, region: string): Promise<QueuedRow[]> {
  const res = await tx.execute<{
    id: string;
    org_id: string;
    project_id: string;
    name: string;
    kind: Instance["kind"];
    workload: Instance["workload"];
    instance_type_id: string;
    gpu_model_id: string;
    gpu_count: number;
    slices_per_gpu: number;
    pricing_model: Instance["pricingModel"];
    image_id: string;
    max_runtime_minutes: number | null;
    node_id: string | null;
    sim_seed: number;
    started_at: string | null;
    provider_ref: string | null;
  }>(sql`
    select id, org_id, project_id, name, kind, workload, instance_type_id, gpu_model_id, gpu_count,
      slices_per_gpu, pricing_model, image_id, max_runtime_minutes, node_id, sim_seed, provider_ref, started_at
    from instances
    where region_code = ${region} and state = 'queued'
    order by gpu_model_id, priority desc, queued_at, id
    for update skip locked`);
  return res.rows.map((r) => ({
    id: r.id,
    orgId: r.org_id,
    projectId: r.project_id,
    name: r.name,
    kind: r.kind,
    workload: r.workload,
    regionCode: region,
    instanceTypeId: r.instance_type_id,
    gpuModelId: r.gpu_model_id,
    gpuCount: Number(r.gpu_count),
    slicesPerGpu: Number(r.slices_per_gpu),
    pricingModel: r.pricing_model,
    imageId: r.image_id,
    maxRuntimeMinutes: r.max_runtime_minutes === null ? null : Number(r.max_runtime_minutes),
    nodeId: r.node_id,
    simSeed: Number(r.sim_seed),
    startedAt: r.started_at === null ? null : new Date(r.started_at),
    providerRef: r.provider_ref,
  }));
}

async function placeRegion(
  tx: Tx,
  ctx: Ctx,
  region: string,
  now: Date,
  spotNoticeMs: number,
): Promise<Decisions & { reclaimed: number }> {
  await lockRegionPlacement(tx, region);
  const queuedRead = started(readQueue(tx, region));
  // The offerings, the holders and the nodes go out right behind the queue on the tick's connection: the
  // database reads the fleet while the quota gate's JavaScript runs. Only a reclaim below changes what they
  // read (a holder's notice), and then they are read again.
  const offeringsRead = started(loadAllOfferings(tx));
  let holdersRead = started(loadRegionHolders(tx, region, now));
  let nodesRead = started(loadRegionNodes(tx, region, holdersRead));
  await sent();
  const queued = await queuedRead;
  // The provider's plan of every queued instance (it needs only the offerings) is computed while the database
  // reads the holders and the nodes.
  const offerings = await offeringsRead;
  const offeringOf = new Map(offerings.map((o) => [o.instanceTypeId, o]));
  const provider = getProvider(region);
  const plans = new Map<string, ProvisionPlan>();
  const requestOf = new Map<string, PRequest>();
  for (const q of queued) {
    const plan = provider.planProvisioning(toProviderInstance(q, offeringOf.get(q.instanceTypeId)), now);
    plans.set(q.id, plan);
    const ready = plan.at.getTime();
    const end =
      plan.outcome === "failed" ? ready : q.maxRuntimeMinutes ? ready + q.maxRuntimeMinutes * 60_000 : null;
    requestOf.set(q.id, {
      id: q.id,
      modelId: q.gpuModelId,
      gpuCount: q.gpuCount,
      slicesPerGpu: q.slicesPerGpu,
      spot: q.pricingModel === "spot",
      endIfStartedNow: end,
    });
  }
  // The quota gate (lib/quotas) runs even with nothing queued: a lowered nominal may need borrowed work back.
  let gate = await gateRegion(tx, region, queued, now);
  await checkpoint("scheduler.gated");
  const reclaimedSet = new Set<string>();
  let reclaimed = 0;
  for (let attempt = 1; ; attempt++) {
    const moved =
      (await reclaimBorrowed(tx, ctx, gate.reclaim, now, spotNoticeMs, "borrowed_reclaimed")) +
      (await reclaimBorrowed(tx, ctx, gate.reclaimOverLimit, now, spotNoticeMs, "quota_lowered"));
    reclaimed += moved;
    for (const id of [...gate.reclaim, ...gate.reclaimOverLimit]) reclaimedSet.add(id);
    if (moved === gate.reclaim.length + gate.reclaimOverLimit.length) break;
    // A victim changed state since the gate read it (its user stopped it: it keeps its GPUs while it stops),
    // so the plan would lend more than the cohort has: decide again on what holds now, else admit nothing.
    if (attempt === 3) {
      gate = { ...gate, admitted: [] };
      break;
    }
    gate = await gateRegion(tx, region, queued, now);
  }
  const borrowedIds = new Set(gate.admitted.filter((a) => a.borrowed).map((a) => a.id));
  if (reclaimed > 0) {
    holdersRead = started(loadRegionHolders(tx, region, now));
    nodesRead = started(loadRegionNodes(tx, region, holdersRead));
  }
  await clearBorrowMarks(tx, region, gate.withinNominal);
  if (queued.length === 0) {
    await settled([offeringsRead, holdersRead, nodesRead]);
    return { placements: [], preemptions: [], reservations: [], reclaimed };
  }
  const byId = new Map(queued.map((q) => [q.id, q]));
  const requests = gate.admitted.flatMap((a) => requestOf.get(a.id) ?? []);
  const [holders, nodes] = await settled([holdersRead, nodesRead]);
  const nodeName = new Map(nodes.map((n) => [n.id, n.name]));
  // One reason per node, not per placement: formatting the text is most of a transition's JavaScript.
  const placedOn = new Map<string, ReturnType<typeof why>>();
  const placedReason = (nodeId: string) => {
    let r = placedOn.get(nodeId);
    if (!r) {
      r = why("placed", { node: nodeName.get(nodeId) ?? "?" });
      placedOn.set(nodeId, r);
    }
    return r;
  };
  const transitionOf = (p: Placement): Transition => {
    const inst = byId.get(p.requestId);
    const plan = plans.get(p.requestId);
    if (!inst || !plan) throw new Error("placement for an unknown request");
    return {
      id: inst.id,
      orgId: inst.orgId,
      from: "queued",
      to: "provisioning",
      reason: placedReason(p.nodeId),
      patch: {
        nodeId: p.nodeId,
        stateDeadline: plan.at,
        provisionFailure: plan.outcome === "failed" ? plan.reason : null,
        stateReason: null,
        queueReason: null,
        borrowed: borrowedIds.has(inst.id),
      },
    };
  };

  // The queued rows are this transaction's (read FOR UPDATE above, under the region's lock), so every
  // placement moves: the allocations and the other rows' queue reasons need not wait for the transitions'
  // answer. The statements go out one behind the other on the connection (the pool pipelines), and the
  // JavaScript that builds each one runs while the database writes the ones before it. The transitions go in
  // parts (FIRST_TRANSITIONS, NEXT_TRANSITIONS), each as soon as the planner has decided it, so the database
  // writes them while the rest are planned and built.
  const steps = placementSteps({ nodes, holders, queue: requests, now: now.getTime(), spotNoticeMs });
  const transitions: Promise<Set<string>>[] = [];
  let part: Transition[] = [];
  let placed = 0;
  const flush = async () => {
    transitions.push(started(applyTransitions(tx, ctx, part)));
    placed += part.length;
    part = [];
    await sent();
  };
  let decisions: Decisions;
  for (;;) {
    const step = steps.next();
    if (step.done) {
      decisions = step.value;
      break;
    }
    part.push(transitionOf(step.value));
    if (part.length === (transitions.length === 0 ? FIRST_TRANSITIONS : NEXT_TRANSITIONS)) await flush();
  }
  if (part.length > 0) await flush();
  const placedIds = new Set(decisions.placements.map((p) => p.requestId));
  const writes: Promise<unknown>[] = [...transitions];
  // One insert for every allocation of the tick, its columns as typed arrays (unnest: no JSON to parse): the
  // instance, organization, node and MIG profile once per placement, each GPU with its slices and the ordinal
  // of its placement (~6,650 placements hold ~16,400 GPUs: a third of the uuids to send and parse). The
  // statement trigger (0032, 0035) checks each GPU's node and that no GPU is double-booked.
  const owner = {
    org: [] as string[],
    inst: [] as string[],
    node: [] as string[],
    mig: [] as (string | null)[],
  };
  const gpus: string[] = [];
  const of: number[] = [];
  const slices: number[] = [];
  for (const p of decisions.placements) {
    const inst = byId.get(p.requestId);
    if (!inst) continue;
    owner.org.push(inst.orgId);
    owner.inst.push(p.requestId);
    owner.node.push(p.nodeId);
    owner.mig.push(offeringOf.get(inst.instanceTypeId)?.migProfile ?? null);
    for (const a of p.alloc) {
      gpus.push(a.gpuId);
      of.push(owner.inst.length);
      slices.push(a.slices);
    }
  }
  if (gpus.length > 0) {
    writes.push(
      started(
        tx.execute(sql`
      insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, mig_profile, allocated_at)
      select p.org_id, p.instance_id, p.node_id, a.node_gpu_id, a.slices, p.mig_profile, ${now}
      from unnest(${uuidArray(owner.org)}, ${uuidArray(owner.inst)}, ${uuidArray(owner.node)},
                  ${textArray(owner.mig)}) with ordinality as p(org_id, instance_id, node_id, mig_profile, n)
      join unnest(${`{${of.join(",")}}`}::int[], ${uuidArray(gpus)}, ${`{${slices.join(",")}}`}::int[])
        as a(n, node_gpu_id, slices) on a.n = p.n`),
      ),
    );
    await sent();
  }
  writes.push(
    started(
      writeQueueReasons(
        tx,
        region,
        queued.filter((q) => !placedIds.has(q.id)),
        gate,
      ),
    ),
  );
  await settled(writes);
  const moved = (await Promise.all(transitions)).reduce((n, set) => n + set.size, 0);
  if (moved !== placed) {
    // Cannot happen while the rows are locked; if it ever does, nothing of this tick is kept (the next one
    // decides again) rather than GPUs booked for an instance that did not move.
    throw new Error(`scheduler: ${placed - moved} placed instances did not move`);
  }
  // Killed here, the placement transaction (transitions and allocations) is rolled back as one.
  await checkpoint("scheduler.placed");
  const spotPreempt = decisions.preemptions.filter((id) => !reclaimedSet.has(id));
  if (spotPreempt.length > 0) await preemptForCapacity(tx, ctx, spotPreempt, now, spotNoticeMs);
  return { ...decisions, preemptions: spotPreempt, reclaimed };
}

/**
 * Lets the statements started so far reach the connection: a query starts in a promise's continuation, so
 * without this the next synchronous stretch of JavaScript would run before it is sent.
 */
const sent = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A statement started now and awaited later: its failure is handled (settled reads it), so a rejection while
 * the caller builds the next statement is not an unhandled one.
 */
function started<T>(query: PromiseLike<T>): Promise<T> {
  const p = Promise.resolve(query);
  p.catch(() => {});
  return p;
}

/** Every statement's result, once all of them have settled; the first failure (in order) is thrown. */
async function settled<T extends Promise<unknown>[] | []>(
  writes: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const results: PromiseSettledResult<unknown>[] = await Promise.allSettled<Promise<unknown>[]>(writes);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}

/** Reclaimed quota (borrowed work a lender needs, or work over a lowered limit): the spot notice, then preempted. */
async function reclaimBorrowed(
  tx: Tx,
  ctx: Ctx,
  ids: string[],
  now: Date,
  noticeMs: number,
  code: "borrowed_reclaimed" | "quota_lowered",
) {
  const moved = await giveNotice(tx, { ...ctx, now: () => now }, ids, {
    reason: why(code, { seconds: Math.round(noticeMs / 1000) }),
    stateReason:
      code === "borrowed_reclaimed"
        ? "Reclaimed: this instance ran on borrowed quota that its lender needed back"
        : "Reclaimed: the operator lowered the organization's quota below what it runs",
    noticeMs,
  });
  return moved.size;
}

async function preemptForCapacity(tx: Tx, ctx: Ctx, ids: string[], now: Date, noticeMs: number) {
  await giveNotice(tx, { ...ctx, now: () => now }, ids, {
    reason: why("spot_reclaimed_for_capacity", { seconds: Math.round(noticeMs / 1000) }),
    stateReason: "Preempted: the spot capacity was needed for on-demand or reserved work",
    noticeMs,
  });
}
