/**
 * Why an instance changed state, as data: a stable code and its parameters, stored on the instance_events row
 * and rendered in the reader's language from the message catalog (Instances.timeline.reasons.<code>). The
 * English text is stored beside them for the audit log, the API and events written before codes existed.
 */
import { formatMessage } from "@/lib/notify";
import { messagesFor } from "@/messages";

export type EventReasonParams = Record<string, string | number>;
export type EventReason = { code: EventReasonCode; params: EventReasonParams; text: string };

/** The English wording is the catalog's own (one source): the stored text reads as the English console shows it. */
const ENGLISH = messagesFor("en").Instances.timeline.reasons;
export type EventReasonCode = keyof typeof ENGLISH;

/** The vocabulary; test/event-reasons.test.ts keeps it and both catalogs in step. */
export const EVENT_REASON_CODES = [
  "launch_requested",
  "accepted",
  "placed",
  "placed_by_cluster",
  "workload_up",
  "stop_requested",
  "stopped",
  "start_requested",
  "termination_requested",
  "terminated",
  "terminated_while_queued",
  "cancelled_while_queued",
  "preempted",
  "notice_ended",
  "auto_recover",
  "spot_reclaimed",
  "spot_interrupted",
  "spot_reclaimed_for_capacity",
  "borrowed_reclaimed",
  "quota_lowered",
  "preempted_for_priority",
  "max_runtime",
  "cluster_time_limit",
  "node_drained",
  "org_suspended",
  "pod_deleted_disk_kept",
  "pod_and_disk_deleted",
  "pod_removed_node_gone",
  "pod_disappeared_starting",
  "placed_by_cluster_unknown",
  "handed_to_cluster",
  "command_finished",
  "command_succeeded",
  "cluster_api_error",
  "container_cannot_start",
  "container_cannot_start_silent",
  "workload_failed",
  "workload_exited",
  "workload_exited_reason",
  "preempted_by_scheduler",
  "preempted_tainted",
  "preempted_evicted_api",
  "preempted_node_gc",
  "preempted_by_kubelet",
  "preempted_evicted",
] as const satisfies readonly EventReasonCode[];

/** The reason for a transition: `why("placed", { node: "fra1-a" })`. */
export function why(code: EventReasonCode, params: EventReasonParams = {}): EventReason {
  return { code, params, text: formatMessage("en", ENGLISH[code], params) };
}

/** A transition's reason as the columns store it (free text, e.g. an operator's note, has no code). */
export function reasonColumns(reason: string | EventReason): {
  reason: string;
  reason_code: string | null;
  reason_params: EventReasonParams | null;
} {
  return typeof reason === "string"
    ? { reason, reason_code: null, reason_params: null }
    : { reason: reason.text, reason_code: reason.code, reason_params: reason.params };
}
