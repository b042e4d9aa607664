/**
 * What bills, and at what rate (docs/adr/0004-metering-and-budgets.md). Compute bills from the moment the
 * workload is up (running) until the GPUs are released: while stopping (graceful shutdown holds the GPUs) and
 * while preempting (the spot notice period, the workload still runs). Nothing bills while requested, queued,
 * provisioning, terminating or after the end. The disk bills at the storage rate while stopped or preempted
 * (kept for a restart); while running it is part of the instance price.
 */
export const COMPUTE_STATES = ["running", "stopping", "preempting"] as const;
export const STORAGE_STATES = ["stopped", "preempted"] as const;

export type BillKind = "compute" | "storage";

export function billKindOf(state: string): BillKind | null {
  if ((COMPUTE_STATES as readonly string[]).includes(state)) return "compute";
  if ((STORAGE_STATES as readonly string[]).includes(state)) return "storage";
  return null;
}

/** Block storage for stopped instances: USD per GiB-hour (≈ $0.073 per GiB-month). */
export const STORAGE_USD_PER_GIB_HOUR = 0.0001;

/**
 * The ledger is written for whole clock hours that ended at least this long ago, so that transitions the
 * reconciler records slightly after the fact (a deadline that passed between two passes) are already there.
 */
export const SETTLE_MS = 2 * 60_000;
/** Each hourly advance also re-checks this much already metered time (events committed out of order). */
export const LOOKBACK_MS = 60 * 60_000;
export const HOUR_MS = 3_600_000;

export function floorHour(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

export function floorSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** A whole GPU is 7 compute slices; reservations and MIG usage are counted in slices to stay in integers. */
export const SLICES_PER_GPU = 7;

export function money(n: number, scale = 6): string {
  const f = 10 ** scale;
  const v = Math.round(n * f) / f;
  return (Object.is(v, -0) ? 0 : v).toFixed(scale);
}
