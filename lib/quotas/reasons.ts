/**
 * Why a queued instance waits: one structured reason per instance, set by each scheduler tick and shown in
 * words (messages: Quotas.reason.<code>) with its numbers. Amounts are in GPUs.
 */
export const QUEUE_REASON_CODES = [
  "waiting_for_gpus",
  "over_nominal_nothing_to_borrow",
  "over_borrowing_limit",
  "project_share_used",
  "budget_blocked",
  "org_suspended",
  // A region on Kubernetes: the cluster's own scheduler has not placed the pod (PodScheduled=False); `detail` is
  // the scheduler's message (lib/provisioning/providers/kubernetes/pod-state.ts).
  "cluster_insufficient",
  "cluster_no_matching_node",
  "cluster_nodes_reserved",
  "cluster_scheduler",
  "cluster_waiting",
] as const;
export type QueueReasonCode = (typeof QUEUE_REASON_CODES)[number];
export type QueueReason = { code: QueueReasonCode; params: Record<string, string | number> };

/** Reasons a quota request could fix (the UI offers "Request more quota" next to them). */
export function reasonAsksForQuota(code: string): boolean {
  return code === "over_nominal_nothing_to_borrow" || code === "over_borrowing_limit";
}
