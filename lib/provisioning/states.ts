/**
 * The instance lifecycle as data (design.md, "The provisioning library"). lifecycle.ts is the only writer of
 * `instances.state`; it refuses any pair not listed here.
 */
export const INSTANCE_STATES = [
  "requested",
  "queued",
  "provisioning",
  "running",
  "stopping",
  "stopped",
  "preempting",
  "preempted",
  "terminating",
  "terminated",
  "rejected",
  "cancelled",
  "failed",
] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

/**
 * Allowed transitions. Beyond the diagram:
 * - provisioning/stopping/preempting → terminating: a user may give up on an instance at any point it holds GPUs.
 * - provisioning/running/stopping/preempting → failed: the provider or the node failed under it.
 * - queued → failed is not allowed: a queued instance holds no node, so nothing can fail under it.
 * - failed, rejected, cancelled and terminated are terminal (a failed instance keeps no GPUs and bills nothing).
 */
export const TRANSITIONS: Readonly<Record<InstanceState, readonly InstanceState[]>> = {
  requested: ["queued", "rejected"],
  queued: ["provisioning", "cancelled"],
  provisioning: ["running", "failed", "terminating"],
  running: ["stopping", "preempting", "terminating", "failed"],
  stopping: ["stopped", "terminating", "failed"],
  stopped: ["queued", "terminating"],
  preempting: ["preempted", "terminating", "failed"],
  preempted: ["queued", "terminating"],
  terminating: ["terminated"],
  terminated: [],
  rejected: [],
  cancelled: [],
  failed: [],
};

export function canTransition(from: InstanceState, to: InstanceState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** States whose instance holds GPUs on a node (active gpu_allocations rows). */
export const CAPACITY_STATES: readonly InstanceState[] = [
  "provisioning",
  "running",
  "stopping",
  "preempting",
];

/**
 * States that count toward the organization's quota: everything that holds GPUs or waits for them. A stopped
 * or preempted instance does not count (starting again checks the quota anew); an auto-recovering spot
 * instance goes preempting → preempted → queued in one transaction, so it keeps its place in the quota.
 */
export const QUOTA_STATES: readonly InstanceState[] = [
  "requested",
  "queued",
  "provisioning",
  "running",
  "stopping",
  "preempting",
];

export const TERMINAL_STATES: readonly InstanceState[] = ["terminated", "rejected", "cancelled", "failed"];

export function holdsCapacity(state: InstanceState): boolean {
  return CAPACITY_STATES.includes(state);
}

/** A whole GPU is 7 compute slices; a MIG slice holds fewer of one GPU in MIG mode. */
export const SLICES_PER_GPU = 7;

/**
 * Whether an instance goes back to the queue when its preemption ends: it asked to (auto-recover), unless it
 * was preempted for higher-priority work of its own organization (`preemptedFor`, the quota policy): queued
 * work counts toward quota, so that one stops instead (ADR 0009). Reconcile, the engine pass and a failed node
 * all decide by this.
 */
export function requeuesAfterPreemption(i: { autoRecover: boolean; preemptedFor: string | null }): boolean {
  return i.autoRecover && !i.preemptedFor;
}
