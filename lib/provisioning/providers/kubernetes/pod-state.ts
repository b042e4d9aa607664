import type { V1Pod } from "@kubernetes/client-node";

/** What a pod says about its instance; the sync pass turns it into a lifecycle transition. */
export type PodObservation =
  | { kind: "unscheduled"; reason: string; queueReason: ClusterQueueReason }
  | { kind: "scheduled"; nodeName: string }
  | { kind: "running"; nodeName: string; startedAt: Date | null }
  | { kind: "succeeded" }
  | { kind: "failed"; reason: string }
  | { kind: "preempted"; reason: string }
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
const DISRUPTIONS: Record<string, string> = {
  PreemptionByScheduler: "the cluster's scheduler preempted it for higher-priority work",
  DeletionByTaintManager: "its node was tainted out of service (spot reclaim or maintenance)",
  EvictionByEvictionAPI: "it was evicted (node drain)",
  DeletionByPodGC: "its node is gone",
  TerminationByKubelet: "the node's kubelet shut it down (node pressure or shutdown)",
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
    const why = disruption?.reason ? DISRUPTIONS[disruption.reason] : undefined;
    return {
      kind: "preempted",
      reason: `Preempted: ${why ?? "the kubelet evicted it"} (${st.message ?? disruption?.message ?? st.reason})`,
    };
  }
  if (pod.metadata?.deletionTimestamp) return { kind: "deleting" };
  const container = st.containerStatuses?.[0];
  const waiting = container?.state?.waiting;
  if (waiting?.reason && FATAL_WAITING.has(waiting.reason)) {
    return {
      kind: "failed",
      reason: `${waiting.reason}: ${waiting.message ?? "the container could not start"}`,
    };
  }
  if (st.phase === "Succeeded") return { kind: "succeeded" };
  if (st.phase === "Failed") {
    const term = container?.state?.terminated;
    const code = term
      ? `exit code ${term.exitCode}${term.reason ? `, ${term.reason}` : ""}`
      : (st.reason ?? "failed");
    return { kind: "failed", reason: `The workload failed (${code})` };
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
