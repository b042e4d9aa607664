import type { V1Pod } from "@kubernetes/client-node";
import { type EventReason, type EventReasonCode, why } from "../../event-reasons";

/** What a pod says about its instance; the sync pass turns it into a lifecycle transition. */
export type PodObservation =
  | { kind: "unscheduled"; reason: string; queueReason: ClusterQueueReason }
  | { kind: "scheduled"; nodeName: string }
  | { kind: "running"; nodeName: string; startedAt: Date | null }
  | { kind: "succeeded" }
  | { kind: "failed"; reason: EventReason }
  | { kind: "preempted"; reason: EventReason }
  | { kind: "deleting" };

/** Waiting reasons that will not fix themselves: the instance fails with the kubelet's words. */
const FATAL_WAITING = new Set([
  "ImagePullBackOff",
  "ErrImagePull",
  "InvalidImageName",
  "CrashLoopBackOff",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
]);

/** DisruptionTarget reasons (Kubernetes ≥ 1.26): the cluster took the pod away; the work itself was fine. */
const DISRUPTIONS: Record<string, EventReasonCode> = {
  PreemptionByScheduler: "preempted_by_scheduler",
  DeletionByTaintManager: "preempted_tainted",
  EvictionByEvictionAPI: "preempted_evicted_api",
  DeletionByPodGC: "preempted_node_gc",
  TerminationByKubelet: "preempted_by_kubelet",
};

/**
 * Why the cluster's scheduler has not placed the pod, as a code of the QueueReasons catalog (messages/en|es/quotas.json)
 * that the console shows in the reader's language; `detail` keeps the scheduler's own message for the operator.
 */
export type ClusterQueueReason =
  | { code: "cluster_insufficient"; params: { resource: string; detail: string } }
  | { code: "cluster_no_matching_node"; params: { detail: string } }
  | { code: "cluster_nodes_reserved"; params: { detail: string } }
  | { code: "cluster_scheduler"; params: { detail: string } }
  | { code: "cluster_waiting"; params: Record<string, never> };

/** The scheduler's "0/3 nodes are available: 2 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint…". */
export function unschedulableReason(message: string): ClusterQueueReason {
  const detail = message;
  const gpu = /Insufficient (nvidia\.com\/(?:gpu|mig-\d+g\.\d+gb(?:\+[a-z]+)?))/.exec(message);
  if (gpu?.[1]) return { code: "cluster_insufficient", params: { resource: gpu[1], detail } };
  if (/didn't match Pod's node affinity|node affinity\/selector/.test(message)) {
    return { code: "cluster_no_matching_node", params: { detail } };
  }
  if (/untolerated taint/.test(message)) return { code: "cluster_nodes_reserved", params: { detail } };
  return { code: "cluster_scheduler", params: { detail } };
}

/** The same in English words, kept as the instance's state reason (API, events, operator logs). */
export function unschedulableInWords(message: string): string {
  const r = unschedulableReason(message);
  switch (r.code) {
    case "cluster_insufficient":
      return `Waiting for the cluster: no node has a free ${r.params.resource} right now (${message})`;
    case "cluster_no_matching_node":
      return `Waiting for the cluster: no node with this GPU model is available (${message})`;
    case "cluster_nodes_reserved":
      return `Waiting for the cluster: the free nodes are reserved for other work (${message})`;
    default:
      return `Waiting for the cluster's scheduler (${message})`;
  }
}

export function observePod(pod: V1Pod): PodObservation {
  const st = pod.status ?? {};
  const conditions = st.conditions ?? [];
  const disruption = conditions.find((c) => c.type === "DisruptionTarget" && c.status === "True");
  if (st.reason === "Evicted" || disruption) {
    const code = (disruption?.reason ? DISRUPTIONS[disruption.reason] : undefined) ?? "preempted_evicted";
    return {
      kind: "preempted",
      reason: why(code, { detail: String(st.message ?? disruption?.message ?? st.reason) }),
    };
  }
  if (pod.metadata?.deletionTimestamp) return { kind: "deleting" };
  const container = st.containerStatuses?.[0];
  const waiting = container?.state?.waiting;
  if (waiting?.reason && FATAL_WAITING.has(waiting.reason)) {
    return {
      kind: "failed",
      reason: waiting.message
        ? why("container_cannot_start", { waiting: waiting.reason, detail: waiting.message })
        : why("container_cannot_start_silent", { waiting: waiting.reason }),
    };
  }
  if (st.phase === "Succeeded") return { kind: "succeeded" };
  if (st.phase === "Failed") {
    const term = container?.state?.terminated;
    const reason = !term
      ? why("workload_failed", { detail: st.reason ?? "failed" })
      : term.reason
        ? why("workload_exited_reason", { exitCode: term.exitCode, detail: term.reason })
        : why("workload_exited", { exitCode: term.exitCode });
    return { kind: "failed", reason };
  }
  const nodeName = pod.spec?.nodeName;
  const ready = conditions.find((c) => c.type === "Ready")?.status === "True";
  if (st.phase === "Running" && ready && nodeName) {
    const at = container?.state?.running?.startedAt;
    return { kind: "running", nodeName, startedAt: at ? new Date(at) : null };
  }
  if (nodeName) return { kind: "scheduled", nodeName };
  const sched = conditions.find((c) => c.type === "PodScheduled");
  if (sched?.status === "False") {
    const message = sched.message ?? sched.reason ?? "Unschedulable";
    return {
      kind: "unscheduled",
      reason: unschedulableInWords(message),
      queueReason: unschedulableReason(message),
    };
  }
  return {
    kind: "unscheduled",
    reason: "Waiting for the cluster's scheduler",
    queueReason: { code: "cluster_waiting", params: {} },
  };
}

/**
 * How a pod that is gone ended, from its last state: finished, failed or disrupted; null when it was still
 * starting or running (then the pass only knows that it vanished). The deletion itself is not the end: a
 * finished pod deleted afterwards still finished.
 */
export function observeDeletedPod(pod: V1Pod): PodObservation | null {
  const { deletionTimestamp: _, ...metadata } = pod.metadata ?? {};
  const o = observePod({ ...pod, metadata });
  return o.kind === "succeeded" || o.kind === "failed" || o.kind === "preempted" ? o : null;
}
