/**
 * Why an instance changed state, as data: a stable code and its parameters, stored on the instance_events row
 * and rendered in the reader's language from the message catalog (Instances.timeline.reasons.<code>). The
 * English text is stored beside them for the audit log, the API and events written before codes existed.
 */
export type EventReasonParams = Record<string, string | number>;
export type EventReason = { code: EventReasonCode; params: EventReasonParams; text: string };

const TEXTS = {
  launch_requested: () => "Launch requested",
  accepted: () => "Accepted: quota and policy checks passed; waiting for capacity",
  placed: (p) => `Placed on ${p.node}`,
  placed_by_cluster: (p) => `Placed by the cluster on ${p.node}`,
  workload_up: () => "The workload is up",
  stop_requested: () => "Stop requested",
  stopped: () => "Stopped",
  start_requested: () => "Start requested; waiting for capacity",
  termination_requested: () => "Termination requested",
  terminated: () => "Terminated",
  terminated_while_queued: () => "Terminated while queued",
  cancelled_while_queued: () => "Cancelled while queued",
  preempted: () => "Preempted",
  notice_ended: () => "The preemption notice ended",
  auto_recover: () => "Auto-recover: back in the queue after a preemption",
  spot_reclaimed: () => "Spot capacity reclaimed",
  spot_interrupted: (p) => `Spot capacity interrupted by the provider; notice of ${p.seconds} s`,
  spot_reclaimed_for_capacity: (p) =>
    `Spot capacity reclaimed for on-demand or reserved work; notice of ${p.seconds} s`,
  borrowed_reclaimed: (p) =>
    `Borrowed capacity reclaimed: an organization of the cohort needs its nominal quota back; notice of ${p.seconds} s`,
  max_runtime: (p) => `Reached its maximum runtime of ${p.minutes} minutes`,
  cluster_time_limit: () => "Reached the cluster's time limit",
  node_drained: (p) => `Node ${p.node} is being drained by the operator; notice of ${p.seconds} s`,
  org_suspended: (p) =>
    `Organization suspended by the platform operator (${p.reason}); this instance stops at ${p.stopsAt}`,
} satisfies Record<string, (p: EventReasonParams) => string>;

export type EventReasonCode = keyof typeof TEXTS;
export const EVENT_REASON_CODES = Object.keys(TEXTS) as EventReasonCode[];

/** The reason for a transition: `why("placed", { node: "fra1-a" })`. */
export function why(code: EventReasonCode, params: EventReasonParams = {}): EventReason {
  return { code, params, text: TEXTS[code](params) };
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
