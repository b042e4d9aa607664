import { why } from "./event-reasons";
import type { Transition } from "./lifecycle";
import type { WorkloadStatus } from "./providers";
import { requeuesAfterPreemption } from "./states";
import type { Instance } from "./types";

export type Decision = {
  /** Transitions to apply in order (each from the state the previous one reached). */
  steps: Transition[];
  /** A new stateReason without a transition (a pending workload's reason, position and ETA). */
  stateReason?: string | null;
  /** With it, the engine's queue position and expected start, for the queue insight. */
  engineQueue?: { position: number | null; expectedStart: string | null };
  /** A workload the engine still runs although Forja no longer wants it. */
  cancel?: string;
  /** Physical GPU indexes on the node, for the allocation rows of queued → provisioning. */
  gpuIndexes: number[];
};

const ENDED = new Set(["completed", "failed", "timeout", "preempted", "node_failed", "cancelled", "gone"]);

function pendingReason(st: WorkloadStatus): string {
  const parts = [`Waiting in the cluster's queue (${st.reason ?? "Priority"})`];
  if (st.queuePosition) parts.push(`position ${st.queuePosition}`);
  if (st.expectedStart) parts.push(`expected start ${st.expectedStart.toISOString()}`);
  return parts.join(" · ");
}

function endedReason(st: WorkloadStatus, node: string | null): string {
  switch (st.phase) {
    case "completed":
      return "The workload exited";
    case "failed":
      return `The workload failed${st.reason ? ` (${st.reason})` : ""}`;
    case "node_failed":
      return `Node ${node ?? st.nodeName ?? "?"} failed`;
    case "cancelled":
      return "Cancelled on the cluster";
    case "gone":
      return "The workload is no longer known to the cluster";
    default:
      return st.reason ?? st.phase;
  }
}

/**
 * When this run began: the engine's start time where it reports one, never later than now and never before this
 * run was queued or the previous run stopped (Slurm's StartTime is whole seconds and the controller's clock),
 * else now. A worker pass may notice a started job seconds late; the lines the job printed meanwhile are this
 * run's logs, which are read from startedAt.
 */
export function runStart(inst: Instance, st: WorkloadStatus, now: Date): Date {
  const engine = st.startedAt?.getTime();
  if (engine == null || !Number.isFinite(engine) || engine > now.getTime()) return now;
  const floor = Math.max(inst.queuedAt?.getTime() ?? 0, inst.stoppedAt?.getTime() ?? 0);
  return new Date(Math.min(now.getTime(), Math.max(engine, floor)));
}

/**
 * Where a followed instance goes, given its engine workload's status. Pure: the engine pass applies it. The
 * engine is the truth for placement and for what ended; Forja's own intents (stopping, terminating) are
 * completed once the engine confirms the workload is gone.
 */
export function decideFromWorkload(
  inst: Instance,
  st: WorkloadStatus,
  now: Date,
  nodeIds: Map<string, string>,
): Decision | null {
  const base = { id: inst.id, orgId: inst.orgId, at: now };
  const live = st.phase === "pending" || st.phase === "running";
  // A notebook, and a container serving a port, are up once the workload reported where it is reached.
  const reports = inst.kind === "notebook" || inst.exposedPort != null;
  const ready = st.phase === "running" && (!reports || st.connection !== null);
  const startedAt = runStart(inst, st, now);
  const run = (from: "provisioning"): Transition => ({
    ...base,
    from,
    to: "running",
    reason: why("workload_up"),
    patch: { startedAt, connection: st.connection ?? {}, stateDeadline: null, spotCheckedUntil: now },
  });
  const gpuIndexes = st.gpuIndexes;
  const steps: Transition[] = [];

  switch (inst.state) {
    case "queued": {
      if (st.phase === "pending") {
        const reason = pendingReason(st);
        if (reason === inst.stateReason) return null;
        const engineQueue = {
          position: st.queuePosition,
          expectedStart: st.expectedStart?.toISOString() ?? null,
        };
        return { steps, stateReason: reason, engineQueue, gpuIndexes };
      }
      if (st.phase === "running") {
        const nodeId = st.nodeName ? (nodeIds.get(st.nodeName) ?? null) : null;
        steps.push({
          ...base,
          from: "queued",
          to: "provisioning",
          reason: why("placed_by_cluster", { node: st.nodeName ?? "?" }),
          patch: { nodeId, stateReason: null, stateDeadline: null },
        });
        if (ready) steps.push(run("provisioning"));
        return { steps, gpuIndexes };
      }
      // Ended before Forja saw it run (refused at start, cancelled on the cluster).
      const reason = endedReason(st, null);
      if (st.phase === "cancelled") {
        steps.push({ ...base, from: "queued", to: "cancelled", reason, patch: { stateReason: reason } });
      } else {
        steps.push({ ...base, from: "queued", to: "provisioning", reason });
        steps.push({ ...base, from: "provisioning", to: "failed", reason, patch: { stateReason: reason } });
      }
      return { steps, gpuIndexes };
    }
    case "provisioning": {
      if (ready) return { steps: [run("provisioning")], gpuIndexes };
      if (st.phase === "running") return null; // up, but it has not reported its URL / port yet
      const reason =
        st.phase === "pending" ? "The cluster requeued the job while it started" : endedReason(st, null);
      return {
        steps: [{ ...base, from: "provisioning", to: "failed", reason, patch: { stateReason: reason } }],
        cancel: live ? st.ref : undefined,
        gpuIndexes,
      };
    }
    case "running":
      return fromRunning(inst, st, now, gpuIndexes);
    case "stopping":
    case "terminating":
    case "preempting": {
      if (live) return { steps, cancel: st.ref, gpuIndexes };
      const to =
        inst.state === "stopping" ? "stopped" : inst.state === "terminating" ? "terminated" : "preempted";
      steps.push({
        ...base,
        from: inst.state,
        to,
        reason: why(to === "stopped" ? "stopped" : to === "terminated" ? "terminated" : "preempted"),
        patch: { stateDeadline: null, stoppedAt: now, connection: null },
      });
      if (to === "preempted" && requeuesAfterPreemption(inst)) steps.push(recover(inst, now, null));
      return { steps, gpuIndexes };
    }
    default:
      return null;
  }
}

function fromRunning(inst: Instance, st: WorkloadStatus, now: Date, gpuIndexes: number[]): Decision | null {
  const base = { id: inst.id, orgId: inst.orgId, at: now };
  if (st.phase === "running") return null;
  const stoppedPatch = { stateDeadline: null, stoppedAt: now, connection: null };
  // Requeued by the engine (a spot preemption with PreemptMode=REQUEUE, a node lost under a requeueable job)
  // or preempted for good: Forja's preempting → preempted, and back to the queue when the instance recovers.
  if (st.phase === "pending" || st.phase === "preempted") {
    const requeued = st.phase === "pending";
    const reason = requeued
      ? "Preempted: the cluster requeued the job for higher-priority work"
      : "Preempted by the cluster";
    const steps: Transition[] = [
      { ...base, from: "running", to: "preempting", reason, patch: { stateReason: reason } },
      { ...base, from: "preempting", to: "preempted", reason, patch: stoppedPatch },
    ];
    // A requeued job is already back in the engine's queue: keep following it. Otherwise submit anew.
    if (inst.autoRecover) steps.push(recover(inst, now, requeued ? st.ref : null));
    return { steps, gpuIndexes };
  }
  if (st.phase === "timeout") {
    const m = inst.maxRuntimeMinutes;
    const reason = m ? why("max_runtime", { minutes: m }) : why("cluster_time_limit");
    const stateReason = m ? `Stopped after its maximum runtime of ${m} minutes` : reason.text;
    return {
      steps: [
        { ...base, from: "running", to: "stopping", reason, patch: { stateReason } },
        { ...base, from: "stopping", to: "stopped", reason: why("stopped"), patch: stoppedPatch },
      ],
      gpuIndexes,
    };
  }
  const reason = endedReason(st, null);
  if (st.phase === "completed" || st.phase === "cancelled") {
    return {
      steps: [
        { ...base, from: "running", to: "stopping", reason, patch: { stateReason: reason } },
        { ...base, from: "stopping", to: "stopped", reason: why("stopped"), patch: stoppedPatch },
      ],
      gpuIndexes,
    };
  }
  if (ENDED.has(st.phase)) {
    return {
      steps: [
        {
          ...base,
          from: "running",
          to: "failed",
          reason,
          patch: { stateReason: reason, stateDeadline: null, connection: null },
        },
      ],
      gpuIndexes,
    };
  }
  return null;
}

function recover(inst: Instance, now: Date, keepRef: string | null): Transition {
  return {
    id: inst.id,
    orgId: inst.orgId,
    from: "preempted",
    to: "queued",
    reason: why("auto_recover"),
    at: now,
    patch: { queuedAt: now, nodeId: null, stateReason: null, providerRef: keepRef },
  };
}
