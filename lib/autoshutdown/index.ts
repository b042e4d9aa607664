/**
 * lib/autoshutdown: per-instance rules (idle, max runtime, cron schedule in a time zone), organization and
 * project policies with defaults and member limits, the evaluation pass (warn, then stop through the policy
 * stop), snooze, and the status query for the instance page.
 */
export { actOnWarning, type ShutdownWarning, warnShutdown } from "./act";
export { type EvaluateAutoShutdownResult, evaluateAutoShutdown } from "./evaluate";
export {
  type AutoShutdownPolicy,
  BUILT_IN_POLICY,
  deleteAutoShutdownPolicy,
  type EffectivePolicy,
  getAutoShutdownPolicy,
  hasPoliciesSql,
  listAutoShutdownPolicies,
  NOTEBOOK_IDLE_MINUTES,
  type PolicyPrecondition,
  pickPolicy,
  resolvePolicy,
  setAutoShutdownPolicy,
} from "./policies";
export { type AutoShutdownStatus, autoShutdownStatus, type PendingShutdown } from "./queries";
export {
  idleDue,
  idleReason,
  maxRuntimeDue,
  type RuleDue,
  type ShutdownRule,
  STALE_TELEMETRY_MS,
  scheduleDue,
} from "./rules";
export { type PolicyInput, type PolicyValues, policySchema, type SnoozeInput, snoozeSchema } from "./schemas";
export { setInstanceAutoShutdown } from "./settings";
export { snooze } from "./snooze";
export {
  type AutoShutdownSettings,
  checkAutoShutdown,
  policyViolations,
  validateAutoShutdown,
  withDefaults,
} from "./validate";
