import "server-only";
import { and, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
import { type Ctx, checkpoint, nowOf } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { followEngineRegion } from "./engine-sync";
import { why } from "./event-reasons";
import { applyTransitions, type Transition } from "./lifecycle";
import { providerInstanceMapper } from "./provider-instance";
import { attachConfiguredEngines, clusterPlacedRegions, engineRegions, getProvider } from "./providers";
import { SPOT_NOTICE_MS } from "./scheduler";
import { uuidArray } from "./sql";
import { requeuesAfterPreemption } from "./states";
import type { Instance } from "./types";

export type ReconcileResult = {
  running: number;
  failed: number;
  stopped: number;
  terminated: number;
  preempted: number;
  requeued: number;
  interrupted: number;
  maxRuntimeStops: number;
  /** Instances handed to an engine (Slurm) by the shared engine pass. */
  submitted: number;
};

const BATCH = 500;

/**
 * One reconciler pass: spot interruptions reported by the provider (running → preempting), instances past
 * their hard max runtime (running → stopping), then every transitional state whose deadline has passed
 * (provisioning → running/failed, stopping → stopped, terminating → terminated, preempting → preempted, and
 * auto-recovering spot back to queued). Rows are claimed with FOR UPDATE SKIP LOCKED and every transition is
 * checked against the current state, so several workers can run it at once and a second pass does nothing.
 */
export async function reconcileInstances(
  ctx: Ctx,
  opts: {
    now?: Date;
    spotNoticeMs?: number /** Only this region (tests; an operator's targeted pass). */;
    regionCode?: string;
  } = {},
): Promise<ReconcileResult> {
  await attachConfiguredEngines();
  const now = opts.now ?? nowOf(ctx);
  const region = opts.regionCode ?? null;
  const c: Ctx = { ...ctx, now: () => now };
  const result: ReconcileResult = {
    running: 0,
    failed: 0,
    stopped: 0,
    terminated: 0,
    preempted: 0,
    requeued: 0,
    interrupted: 0,
    maxRuntimeStops: 0,
    submitted: 0,
  };
  // Regions handed to the shared engine pass: the engine's view decides (its placement, preemptions, nodes).
  for (const { regionCode, engine } of engineRegions()) {
    if (region !== null && region !== regionCode) continue;
    try {
      const r = await followEngineRegion(c, engine, regionCode, now);
      for (const k of Object.keys(r) as Array<keyof typeof r>) result[k] += r[k];
    } catch (err) {
      // One unreachable cluster must not stop the other regions' lifecycle.
      console.error(`[reconcile] engine pass for region ${regionCode} failed`, err);
    }
  }
  result.interrupted = await withTx(ctx.tx, (tx) =>
    spotInterruptions(tx, c, now, opts.spotNoticeMs ?? SPOT_NOTICE_MS, region),
  );
  result.maxRuntimeStops = await withTx(ctx.tx, (tx) => maxRuntimeStops(tx, c, now, region));
  for (let i = 0; i < 50; i++) {
    const n = await withTx(ctx.tx, (tx) => dueDeadlines(tx, c, now, result, region));
    if (n < BATCH) break;
  }
  return result;
}

/** The region asked for, and never one whose engine drives its own transitions (its sync pass does). */
function inRegion(region: string | null) {
  const external = clusterPlacedRegions();
  return and(
    region === null ? undefined : eq(instances.regionCode, region),
    external.length === 0 ? undefined : notInArray(instances.regionCode, external),
  );
}

async function dueDeadlines(
  tx: Tx,
  ctx: Ctx,
  now: Date,
  result: ReconcileResult,
  region: string | null,
): Promise<number> {
  const due = await tx
    .select()
    .from(instances)
    .where(
      and(
        inArray(instances.state, ["provisioning", "stopping", "terminating", "preempting"]),
        lte(instances.stateDeadline, now),
        inRegion(region),
      ),
    )
    .orderBy(instances.stateDeadline)
    .limit(BATCH)
    .for("update", { skipLocked: true });
  if (due.length === 0) return 0;
  const toProvider = await providerInstanceMapper(tx);
  const first: Transition[] = [];
  const requeue: Transition[] = [];
  for (const inst of due) {
    const at = inst.stateDeadline ?? now;
    const base = { id: inst.id, orgId: inst.orgId, at };
    if (inst.state === "provisioning" && inst.provisionFailure) {
      first.push({
        ...base,
        from: "provisioning",
        to: "failed",
        reason: inst.provisionFailure,
        patch: { stateReason: inst.provisionFailure, stateDeadline: null },
      });
      result.failed++;
    } else if (inst.state === "provisioning") {
      const connection = getProvider(inst.regionCode).connectionFor(toProvider({ ...inst, startedAt: at }));
      first.push({
        ...base,
        from: "provisioning",
        to: "running",
        reason: why("workload_up"),
        patch: { startedAt: at, connection, stateDeadline: null, spotCheckedUntil: at },
      });
      result.running++;
    } else if (inst.state === "stopping") {
      first.push({ ...base, from: "stopping", to: "stopped", reason: why("stopped"), patch: stopped(at) });
      result.stopped++;
    } else if (inst.state === "terminating") {
      first.push({
        ...base,
        from: "terminating",
        to: "terminated",
        reason: why("terminated"),
        patch: stopped(at),
      });
      result.terminated++;
    } else if (inst.state === "preempting") {
      first.push({
        ...base,
        from: "preempting",
        to: "preempted",
        reason: why("notice_ended"),
        patch: stopped(at),
      });
      result.preempted++;
      // Preempted for higher-priority work of its own organization: it stops here. Requeued, it would count
      // toward the quota that work needs (queued work counts), putting the organization over its own limit.
      if (requeuesAfterPreemption(inst)) requeue.push(autoRecover(inst, now));
    }
  }
  const moved = await applyTransitions(tx, ctx, first);
  const back = await applyTransitions(
    tx,
    ctx,
    requeue.filter((t) => moved.has(t.id)),
  );
  result.requeued += back.size;
  // Killed here, the batch's transitions are rolled back as one; the next pass finds them due again.
  await checkpoint("reconcile.transitioned");
  return due.length;
}

function stopped(at: Date) {
  return { stateDeadline: null, stoppedAt: at, connection: null };
}

/** Auto-recover keeps its quota: preempting counts toward quota and this happens in the same transaction. */
function autoRecover(inst: Instance, now: Date): Transition {
  return {
    id: inst.id,
    orgId: inst.orgId,
    from: "preempted",
    to: "queued",
    reason: why("auto_recover"),
    at: now,
    patch: { queuedAt: now, nodeId: null, stateReason: null },
  };
}

async function spotInterruptions(
  tx: Tx,
  ctx: Ctx,
  now: Date,
  noticeMs: number,
  region: string | null,
): Promise<number> {
  const running = await tx
    .select()
    .from(instances)
    .where(and(eq(instances.state, "running"), eq(instances.pricingModel, "spot"), inRegion(region)))
    .limit(2000)
    .for("update", { skipLocked: true });
  if (running.length === 0) return 0;
  const toProvider = await providerInstanceMapper(tx);
  const hits: Transition[] = [];
  for (const inst of running) {
    const from = inst.spotCheckedUntil ?? inst.startedAt ?? now;
    if (from >= now) continue;
    const at = getProvider(inst.regionCode).spotInterruptionIn(toProvider(inst), from, now);
    if (!at) continue;
    hits.push({
      id: inst.id,
      orgId: inst.orgId,
      from: "running",
      to: "preempting",
      at,
      reason: why("spot_interrupted", { seconds: Math.round(noticeMs / 1000) }),
      patch: {
        stateDeadline: new Date(at.getTime() + noticeMs),
        stateReason: "Preempted: the provider interrupted the spot capacity",
        spotCheckedUntil: at,
      },
    });
  }
  const moved = await applyTransitions(tx, { ...ctx, actor: { kind: "system", name: "provider" } }, hits);
  const checked = running.filter((r) => !moved.has(r.id)).map((r) => r.id);
  if (checked.length > 0) {
    await tx.execute(
      // greatest(): a pass running with an older clock (e.g. a back-fill) must never move a watermark back.
      sql`update instances set spot_checked_until = greatest(spot_checked_until, ${now}) where id = any(${uuidArray(checked)}) and state = 'running'`,
    );
  }
  return moved.size;
}

/** The hard cap a launch may set (maxRuntimeMinutes): queue ETAs and backfill rely on it being kept. */
async function maxRuntimeStops(tx: Tx, ctx: Ctx, now: Date, region: string | null): Promise<number> {
  const enforcing = engineRegions()
    .filter((e) => e.engine.enforcesMaxRuntime)
    .map((e) => e.regionCode);
  const over = await tx
    .select()
    .from(instances)
    .where(
      and(
        eq(instances.state, "running"),
        sql`${instances.maxRuntimeMinutes} is not null`,
        sql`${instances.startedAt} + make_interval(mins => ${instances.maxRuntimeMinutes}) <= ${now}`,
        // Every engine: a cluster-placed one sees the instance stopping and deletes its workload, except
        // one that enforces the limit itself (Slurm's time limit ends the job; the engine pass follows).
        region === null ? undefined : eq(instances.regionCode, region),
        enforcing.length === 0 ? undefined : notInArray(instances.regionCode, enforcing),
      ),
    )
    .limit(BATCH)
    .for("update", { skipLocked: true });
  if (over.length === 0) return 0;
  const toProvider = await providerInstanceMapper(tx);
  const moved = await applyTransitions(
    tx,
    { ...ctx, actor: { kind: "system", name: "policy" } },
    over.map((inst) => ({
      id: inst.id,
      orgId: inst.orgId,
      from: "running" as const,
      to: "stopping" as const,
      reason: why("max_runtime", { minutes: inst.maxRuntimeMinutes ?? 0 }),
      patch: {
        stateDeadline: new Date(now.getTime() + getProvider(inst.regionCode).stopDelayMs(toProvider(inst))),
        stateReason: `Stopped after its maximum runtime of ${inst.maxRuntimeMinutes} minutes`,
      },
    })),
  );
  return moved.size;
}
