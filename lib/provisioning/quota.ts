/**
 * Quota moved to lib/quotas (levels, borrowing, fair share); these names stay here for the callers that
 * import them from lib/provisioning.
 */
export {
  DEFAULT_QUOTA_GPUS,
  gpusOfSlices,
  type QuotaLeft,
  quotaLeft,
  SEEDED_QUOTA_GPUS,
  seedDefaultQuotas,
} from "@/lib/quotas";
