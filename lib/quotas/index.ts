/**
 * lib/quotas: hierarchical GPU quotas per GPU model × region — cohorts, organizations (nominal, borrowing
 * and lending limits), project shares — admission for launch, the scheduler's gate (borrowing, weighted
 * fair share, reclaim), queue reasons, quota requests and the operator's edits. Framework-free; used by
 * lib/provisioning (which it never imports), the UI, the API and the worker.
 */

export {
  type CohortMemberView,
  cohortMemberView,
  createCohort,
  type QuotaDefaultView,
  type QuotaLevelsView,
  quotaDefaultView,
  quotaLevelsView,
  type ReclaimPreview,
  removeCohortMember,
  setCohortMember,
  setOrgQuota,
  setQuotaDefault,
} from "./admin";
export {
  type AdmissionStandingRow,
  type Admitted,
  admissionStandingSql,
  assertNotSuspended,
  assertQuotaAdmits,
  choosePreemptions,
  FOOTPRINT_STATES,
  inFootprintSql,
  lockQuota,
  type QuotaKey,
  type QuotaStanding,
  quotaLockOf,
  quotaLockSql,
  quotaStanding,
  refuseIfSuspended,
  suspensionReasonSql,
} from "./admission";
export {
  type GateHolder,
  type GateInput,
  type GateLevel,
  type GateOrg,
  type GateRequest,
  type GateResult,
  gateQueue,
} from "./gate";
export { checkQuotaInvariants, type QuotaViolation } from "./invariant";
export { DEFAULT_QUOTA_GPUS, type EffectiveLevel, effectiveLevels, SEEDED_QUOTA_GPUS } from "./levels";
export { listOrgQuotas, type OrgQuotaRow, setProjectShare } from "./org";
export {
  type CohortRow,
  listCohorts,
  listQuotaDefaults,
  listQuotaHistory,
  listQuotaTable,
  listQuotaTableKeys,
  type QuotaChoices,
  type QuotaDefaultRow,
  type QuotaHistoryRow,
  type QuotaTableFilter,
  type QuotaTableKey,
  type QuotaTableRow,
  quotaChoices,
  quotaTableRows,
} from "./overview";
export { getQuotaPolicy, type QuotaPolicy, setQuotaPolicy } from "./policy";
export { type QuotaLeft, quotaLeft, seedDefaultQuotas } from "./preview";
export { QUEUE_REASON_CODES, type QueueReason, type QueueReasonCode, reasonAsksForQuota } from "./reasons";
export {
  createQuotaRequest,
  decideQuotaRequest,
  expireQuotaRaises,
  listOrgQuotaRequests,
  listQuotaRequests,
  type OperatorQuotaRequest,
  type QuotaRequest,
} from "./requests";
export {
  cohortMemberSchema,
  cohortSchema,
  projectShareSchema,
  QUOTA_FIELD_MESSAGES,
  quotaDecisionSchema,
  quotaLevelsSchema,
  quotaPolicySchema,
  quotaRequestSchema,
  setOrgQuotaSchema,
  setQuotaDefaultSchema,
} from "./schemas";
export { HELD_STATES, loadRegionQuotaState, regionsOverQuota } from "./state";
export { gpusOfSlices, SLICES_PER_GPU, slicesOfGpus } from "./units";
export {
  adminQuotaListSchema,
  adminQuotaRowSchema,
  cohortListSchema,
  cohortViewSchema,
  operatorQuotaRequestViewSchema,
  orgQuotaListSchema,
  orgQuotaViewSchema,
  type QuotaRequestView,
  quotaRequestListSchema,
  quotaRequestView,
  quotaRequestViewSchema,
} from "./views";
