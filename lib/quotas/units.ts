/**
 * A whole GPU is 7 compute slices (the same unit lib/provisioning allocates in; a MIG slice holds fewer).
 * Quotas are set in GPUs and kept in slices, so a 1g MIG slice uses 1/7 of a GPU of quota.
 */
export const SLICES_PER_GPU = 7;

export function gpusOfSlices(slices: number): number {
  return Math.round((slices / SLICES_PER_GPU) * 100) / 100;
}

export function slicesOfGpus(gpus: number): number {
  return Math.round(gpus * SLICES_PER_GPU);
}
