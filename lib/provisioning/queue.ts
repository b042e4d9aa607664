import "server-only";
import { sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { type Executor, readDb } from "@/lib/db/client";
import { type Alternative, alternativesFor } from "./alternatives";
import { type EtaRequest, replayStart } from "./eta";
import { loadRegionHolders, loadRegionNodes } from "./fleet-state";
import { loadOrgInstance } from "./load";
import { loadOffering, type Offering } from "./offerings";
import { DEFAULT_PRIORITY } from "./schemas";
import type { Instance } from "./types";

/**
 * How an ETA was estimated: "capacity" (it fits now and nobody is ahead), "runtime" (a replay of the queue
 * against the max runtimes of what runs), "history" (the median queue wait of the last 7 days, because
 * something it waits for has no max runtime), "unknown" (neither), or "no_capacity" (no active node here has
 * this GPU model at all), or "cluster" (an engine-placed region: the position and expected start its own
 * scheduler gives, e.g. Slurm's `squeue --start`; no ETA while the cluster has none), or "quota" (it waits on
 * quota, not GPUs: when enough of its organization's — or project's — own work here reaches its max runtime,
 * and no sooner than the GPUs allow; no ETA while suspended, budget-blocked or waiting on work without one).
 */
export type EtaMethod = "capacity" | "runtime" | "history" | "unknown" | "no_capacity" | "cluster" | "quota";
export type WaitEstimate = {
  etaSeconds: number | null;
  method: EtaMethod;
  /** Requests ahead in the same region × GPU model queue. */
  ahead: number;
  /** For "history": how many starts the median is over. */
  historySamples?: number;
};
export type QueueInsight = {
  instanceId: string;
  state: string;
  /** 1 = next in its queue; null when it is not queued. */
  position: number | null;
  estimate: WaitEstimate | null;
  alternatives: Alternative[];
};

const AHEAD_LIMIT = 500;
const HISTORY_DAYS = 7;

type Target = { id: string | null; priority: number; queuedAt: Date | null };

async function queueAhead(exec: Executor, region: string, model: string, t: Target) {
  const before = t.id
    ? sql`(priority > ${t.priority} or (priority = ${t.priority} and (queued_at, id) < (${t.queuedAt}, ${t.id}::uuid)))`
    : sql`priority >= ${t.priority}`;
  const res = await exec.execute<{
    id: string;
    gpu_count: number;
    slices_per_gpu: number;
    max_runtime_minutes: number | null;
    total: number;
  }>(sql`
    select id, gpu_count, slices_per_gpu, max_runtime_minutes, count(*) over ()::int as total from instances
    where state = 'queued' and region_code = ${region} and gpu_model_id = ${model} and ${before}
    order by priority desc, queued_at, id limit ${AHEAD_LIMIT}`);
  return {
    total: res.rows[0]?.total ?? 0,
    rows: res.rows.map(
      (r): EtaRequest => ({
        id: r.id,
        modelId: model,
        gpuCount: r.gpu_count,
        slicesPerGpu: r.slices_per_gpu,
        spot: false,
        runtimeMs: r.max_runtime_minutes ? r.max_runtime_minutes * 60_000 : null,
      }),
    ),
  };
}

/** Median wait (queued → placed) of the last 7 days for a region × GPU model, in seconds. */
async function historyWait(exec: Executor, region: string, model: string, now: Date) {
  const res = await exec.execute<{ p50: number | null; n: number }>(sql`
    select percentile_cont(0.5) within group (order by w.wait_seconds) as p50, count(*)::int as n
    from queue_waits w
    where w.region_code = ${region} and w.gpu_model_id = ${model}
      and w.ended_at > ${new Date(now.getTime() - HISTORY_DAYS * 86_400_000)} and w.ended_at <= ${now}`);
  const row = res.rows[0];
  return { p50: row?.p50 === null || row?.p50 === undefined ? null : Number(row.p50), n: row?.n ?? 0 };
}

async function estimate(exec: Executor, region: string, offering: Offering, t: Target, now: Date) {
  const holders = await loadRegionHolders(exec, region, now);
  const nodes = (await loadRegionNodes(exec, region, holders)).filter(
    (n) => n.modelId === offering.gpuModelId,
  );
  const ahead = await queueAhead(exec, region, offering.gpuModelId, t);
  if (nodes.length === 0)
    return { etaSeconds: null, method: "no_capacity", ahead: ahead.total } satisfies WaitEstimate;
  const target: EtaRequest = {
    id: t.id ?? "new",
    modelId: offering.gpuModelId,
    gpuCount: offering.gpuCount,
    slicesPerGpu: offering.slicesPerGpu,
    spot: false,
    runtimeMs: null,
  };
  const startAt =
    ahead.total <= AHEAD_LIMIT
      ? replayStart({ nodes, holders, ahead: ahead.rows, target, now: now.getTime() })
      : null;
  if (startAt !== null) {
    const etaSeconds = Math.max(0, Math.round((startAt - now.getTime()) / 1000));
    return {
      etaSeconds,
      method: etaSeconds === 0 && ahead.total === 0 ? "capacity" : "runtime",
      ahead: ahead.total,
    } satisfies WaitEstimate;
  }
  const h = await historyWait(exec, region, offering.gpuModelId, now);
  if (h.p50 === null)
    return { etaSeconds: null, method: "unknown", ahead: ahead.total } satisfies WaitEstimate;
  return {
    etaSeconds: Math.round(h.p50),
    method: "history",
    ahead: ahead.total,
    historySamples: h.n,
  } satisfies WaitEstimate;
}

/**
 * The expected wait for a new launch of an instance type in a region (the launch page and the catalog): where
 * it would queue at the default priority, replayed as above. Public fleet data: no tenant scope.
 */
export async function expectedWait(
  regionCode: string,
  instanceTypeId: string,
  ctx: Pick<Ctx, "tx" | "now"> = {},
): Promise<WaitEstimate | null> {
  const exec = readDb(ctx);
  const offering = await loadOffering(exec, instanceTypeId);
  if (!offering) return null;
  return estimate(
    exec,
    regionCode,
    offering,
    { id: null, priority: DEFAULT_PRIORITY, queuedAt: null },
    nowOf(ctx),
  );
}

/** A queued instance's position, ETA and alternatives that would start sooner, each with its hourly price. */
export async function queueInsight(
  ctx: Ctx,
  orgSlug: string,
  instanceId: string,
  read?: Instance,
): Promise<QueueInsight> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const now = nowOf(ctx);
  // A caller that already read the instance (the detail view) passes that row: the insight is judged from it,
  // so a detail never shows "queued" without its queue because the scheduler placed it between two reads.
  const inst =
    read && read.id === instanceId && read.orgId === org.id
      ? read
      : await loadOrgInstance(exec, org.id, instanceId);
  const base = { instanceId: inst.id, state: inst.state };
  if (inst.state !== "queued") return { ...base, position: null, estimate: null, alternatives: [] };
  const offering = await loadOffering(exec, inst.instanceTypeId);
  if (!offering) throw new NotFoundError("Instance type");
  const est = inst.engineQueue
    ? clusterEstimate(inst.engineQueue, now)
    : await estimate(
        exec,
        inst.regionCode,
        offering,
        { id: inst.id, priority: inst.priority, queuedAt: inst.queuedAt },
        now,
      );
  const quota = inst.engineQueue ? null : await quotaEstimate(exec, inst, est, now);
  const alternatives = await alternativesFor(
    exec,
    org,
    { regionCode: inst.regionCode, offering, pricingModel: inst.pricingModel },
    now,
  );
  return { ...base, position: est.ahead + 1, estimate: quota ?? est, alternatives };
}

type QueueReasonRow = { code: string; params: Record<string, number | string> };
const SHARE_OR_QUOTA = ["over_nominal_nothing_to_borrow", "over_borrowing_limit", "project_share_used"];

/**
 * For an instance the quota gate holds back (its queue reason), the ETA the GPUs alone give is wrong: it
 * starts once enough of its organization's (or, for a project share, its project's) own work on this GPU
 * model here has ended, by its max runtime — and no sooner than the capacity estimate. Null when the reason
 * is not about quota.
 */
async function quotaEstimate(
  exec: Executor,
  inst: { orgId: string; projectId: string; gpuModelId: string; regionCode: string; queueReason: unknown },
  capacity: WaitEstimate,
  now: Date,
): Promise<WaitEstimate | null> {
  const reason = inst.queueReason as QueueReasonRow | null;
  if (!reason) return null;
  const blocked = { etaSeconds: null, method: "quota", ahead: capacity.ahead } satisfies WaitEstimate;
  if (reason.code === "org_suspended" || reason.code === "budget_blocked") return blocked;
  if (!SHARE_OR_QUOTA.includes(reason.code)) return null;
  const p = reason.params;
  const limit =
    reason.code === "project_share_used"
      ? Number(p.share)
      : Number(p.nominal) + (reason.code === "over_borrowing_limit" ? Number(p.borrowingLimit) : 0);
  // GPUs that must end first (in GPUs, as the reason's numbers are).
  let toFree = Number(p.inUse) + Number(p.requested) - limit;
  if (!Number.isFinite(toFree)) return blocked;
  const scope =
    reason.code === "project_share_used" ? sql`project_id = ${inst.projectId}` : sql`org_id = ${inst.orgId}`;
  const res = await exec.execute<{ gpus: number; ends_at: Date | string | null }>(sql`
    select gpu_count * slices_per_gpu / 7.0 as gpus,
      started_at + make_interval(mins => max_runtime_minutes) as ends_at
    from instances
    where ${scope} and gpu_model_id = ${inst.gpuModelId} and region_code = ${inst.regionCode}
      and state in ('provisioning', 'running', 'stopping')
    order by ends_at nulls last`);
  let at: number | null = null;
  for (const r of res.rows) {
    if (toFree <= 0) break;
    if (r.ends_at === null) return blocked;
    at = new Date(r.ends_at).getTime();
    toFree -= Number(r.gpus);
  }
  if (toFree > 0) return blocked;
  const quotaSeconds = Math.max(0, Math.round(((at ?? now.getTime()) - now.getTime()) / 1000));
  return {
    etaSeconds: capacity.etaSeconds === null ? quotaSeconds : Math.max(quotaSeconds, capacity.etaSeconds),
    method: "quota",
    ahead: capacity.ahead,
  };
}

/** The engine's own answer (engine-placed regions): it places, so its queue is the one that counts. */
function clusterEstimate(
  q: { position: number | null; expectedStart: string | null },
  now: Date,
): WaitEstimate {
  const start = q.expectedStart ? Date.parse(q.expectedStart) : null;
  return {
    etaSeconds: start === null ? null : Math.max(0, Math.round((start - now.getTime()) / 1000)),
    method: "cluster",
    ahead: Math.max(0, (q.position ?? 1) - 1),
  };
}
