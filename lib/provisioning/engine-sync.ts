import "server-only";
import { and, eq, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { readDb, type Tx, withTx } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { syncEngineFleet } from "./engine-fleet";
import { submitQueued } from "./engine-submit";
import { type Decision, decideFromWorkload } from "./engine-transitions";
import { applyTransitions, type Transition } from "./lifecycle";
import type { Engine, WorkloadStatus } from "./providers";
import type { Instance } from "./types";

/** The states in which Forja expects the engine to hold a workload for the instance. */
const FOLLOWED = ["queued", "provisioning", "running", "stopping", "terminating", "preempting"] as const;
/** Followed states that only wait for the workload to be gone. */
const LEAVING = ["stopping", "terminating", "preempting"] as const;

export type EngineCounts = {
  running: number;
  failed: number;
  stopped: number;
  terminated: number;
  preempted: number;
  requeued: number;
  maxRuntimeStops: number;
  submitted: number;
};

/**
 * One pass over an engine-placed region: mirror its nodes, submit admitted instances, then move every followed
 * instance to where its workload is (engine-transitions.ts has the mapping), and cancel workloads of instances
 * that left (stopped, terminated, cancelled while queued). Safe to repeat and to run in several workers: rows
 * are claimed with SKIP LOCKED and each transition checks the state it leaves.
 */
export async function followEngineRegion(
  ctx: Ctx,
  engine: Engine,
  region: string,
  now: Date,
): Promise<EngineCounts> {
  const c: Ctx = { ...ctx, actor: { kind: "system", name: "provider" }, now: () => now };
  const counts: EngineCounts = {
    running: 0,
    failed: 0,
    stopped: 0,
    terminated: 0,
    preempted: 0,
    requeued: 0,
    maxRuntimeStops: 0,
    submitted: 0,
  };
  const reported = await engine.discoverNodes(region);
  await withTx(ctx.tx, (tx) => syncEngineFleet(tx, c, region, reported, now, engine.clusterName));
  const sub = await submitQueued(c, engine, region, now);
  counts.submitted += sub.submitted;
  counts.failed += sub.failed;
  await withTx(ctx.tx, (tx) => followWorkloads(tx, c, engine, region, now, counts));
  await releaseLeft(c, engine, region);
  return counts;
}

async function followWorkloads(
  tx: Tx,
  ctx: Ctx,
  engine: Engine,
  region: string,
  now: Date,
  counts: EngineCounts,
): Promise<void> {
  const rows = await tx
    .select()
    .from(instances)
    .where(
      and(
        eq(instances.regionCode, region),
        inArray(instances.state, [...FOLLOWED]),
        // Leaving without a workload (terminating a stopped instance: its job ended with the stop) is
        // completed here too, as the workload being gone.
        or(isNotNull(instances.providerRef), inArray(instances.state, [...LEAVING])),
      ),
    )
    .for("update", { skipLocked: true });
  if (rows.length === 0) return;
  const refs = rows.map((r) => r.providerRef).filter((r): r is string => r !== null);
  const statuses = refs.length > 0 ? await engine.observe(region, refs) : new Map<string, WorkloadStatus>();
  const nodes = await nodeIndex(tx, region);
  const decisions: Array<{ inst: Instance; d: Decision }> = [];
  for (const inst of rows) {
    const ref = inst.providerRef ?? "";
    const st: WorkloadStatus = statuses.get(ref) ?? gone(ref);
    const d = decideFromWorkload(inst, st, now, nodes.ids);
    if (d) decisions.push({ inst, d });
  }
  // Pending reasons and ETAs are not transitions: one update for those that changed.
  const reasons = decisions.filter((x) => x.d.stateReason !== undefined && x.d.steps.length === 0);
  for (const { inst, d } of reasons) {
    await tx.execute(
      sql`update instances set state_reason = ${d.stateReason ?? null},
            engine_queue = ${d.engineQueue ? JSON.stringify(d.engineQueue) : null}::jsonb
          where id = ${inst.id} and state = ${inst.state}`,
    );
  }
  for (const { d } of decisions) if (d.cancel) await engine.cancel(d.cancel);
  // Chains (queued → provisioning → running; running → stopping → stopped; …) apply one step at a time.
  const maxLen = Math.max(0, ...decisions.map((x) => x.d.steps.length));
  let alive = new Set(decisions.map((x) => x.inst.id));
  for (let step = 0; step < maxLen; step++) {
    const batch: Transition[] = [];
    for (const { inst, d } of decisions) {
      const t = d.steps[step];
      if (t && alive.has(inst.id)) batch.push(t);
    }
    // A stop at the maximum runtime is the policy's doing: its events say so (actor "policy").
    const policy = batch.filter((t) => typeof t.reason !== "string" && t.reason.code === "max_runtime");
    const others = batch.filter((t) => !policy.includes(t));
    const moved = new Set([
      ...(await applyTransitions(tx, ctx, others)),
      ...(await applyTransitions(tx, { ...ctx, actor: { kind: "system", name: "policy" } }, policy)),
    ]);
    alive = moved;
    for (const t of batch) {
      if (!moved.has(t.id)) continue;
      if (t.from === "queued" && t.to === "provisioning") await allocate(tx, t, decisions, nodes, now);
      if (t.to === "running") counts.running++;
      if (t.to === "failed") counts.failed++;
      if (t.to === "stopped") counts.stopped++;
      if (t.to === "terminated") counts.terminated++;
      if (t.to === "preempted") counts.preempted++;
      if (t.from === "preempted" && t.to === "queued") counts.requeued++;
      if (t.to === "stopping" && policy.includes(t)) counts.maxRuntimeStops++;
    }
  }
}

type NodeIndex = { ids: Map<string, string>; gpus: Map<string, string> };

async function nodeIndex(tx: Tx, region: string): Promise<NodeIndex> {
  const res = await tx.execute<{
    node_id: string;
    name: string;
    gpu_id: string | null;
    gpu_index: number | null;
  }>(
    sql`select n.id as node_id, n.name, g.id as gpu_id, g.gpu_index from nodes n
        left join node_gpus g on g.node_id = n.id where n.region_code = ${region}`,
  );
  const ids = new Map<string, string>();
  const gpus = new Map<string, string>();
  for (const r of res.rows) {
    ids.set(r.name, r.node_id);
    if (r.gpu_id !== null) gpus.set(`${r.node_id}:${r.gpu_index}`, r.gpu_id);
  }
  return { ids, gpus };
}

/** Forja's allocation rows mirror where the engine put the workload, so Forja's capacity views read the cluster. */
async function allocate(
  tx: Tx,
  t: Transition,
  decisions: Array<{ inst: Instance; d: Decision }>,
  nodes: NodeIndex,
  now: Date,
): Promise<void> {
  const x = decisions.find((y) => y.inst.id === t.id);
  const nodeId = t.patch?.nodeId;
  if (!x || !nodeId) return;
  const rows = x.d.gpuIndexes
    .map((g) => nodes.gpus.get(`${nodeId}:${g}`))
    .filter((g): g is string => Boolean(g))
    .map((gpuId) => ({
      org_id: x.inst.orgId,
      instance_id: x.inst.id,
      node_id: nodeId,
      node_gpu_id: gpuId,
      slices: x.inst.slicesPerGpu,
    }));
  if (rows.length === 0) return;
  // The engine placed this workload on these GPUs, so any live row of another instance there is stale (e.g. a
  // spot job the cluster already preempted and requeued while Forja still shows it preempting): release it
  // first, or the database's no-double-booking constraint refuses the cluster's own placement.
  await tx.execute(sql`
    update gpu_allocations set released_at = ${now}
    where released_at is null and instance_id <> ${x.inst.id}
      and node_gpu_id in (select (r->>'node_gpu_id')::uuid from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) r)`);
  await tx.execute(sql`
    insert into gpu_allocations (org_id, instance_id, node_id, node_gpu_id, slices, mig_profile, allocated_at)
    select r.org_id, r.instance_id, r.node_id, r.node_gpu_id, r.slices, null, ${now}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(org_id uuid, instance_id uuid, node_id uuid, node_gpu_id uuid, slices int)`);
}

/** Instances that left the followed states (stopped, terminated, cancelled while queued): end their workload. */
async function releaseLeft(ctx: Ctx, engine: Engine, region: string): Promise<void> {
  const exec = readDb(ctx);
  const left = await exec
    .select({ id: instances.id, ref: instances.providerRef })
    .from(instances)
    .where(
      and(
        eq(instances.regionCode, region),
        notInArray(instances.state, [...FOLLOWED]),
        isNotNull(instances.providerRef),
      ),
    );
  for (const r of left) {
    await engine.cancel(r.ref as string);
    await exec.execute(
      sql`update instances set provider_ref = null where id = ${r.id} and provider_ref = ${r.ref}`,
    );
  }
}

function gone(ref: string): WorkloadStatus {
  return {
    ref,
    phase: "gone",
    reason: null,
    nodeName: null,
    gpuIndexes: [],
    expectedStart: null,
    queuePosition: null,
    connection: null,
  };
}
