import { createHash } from "node:crypto";
import type { ProviderInstance, ProvisionPlan } from "../types";
import { hashUnit } from "./prng";

/**
 * FORJA_SIM_SPEED (default 1) divides every simulated delay (provisioning, stop, terminate), so end-to-end tests
 * and demos see queued → running in seconds: FORJA_SIM_SPEED=30 turns a 60 s start into 2 s. Read on each call so
 * a test can change it without reloading modules.
 */
export function simSpeed(): number {
  const v = Number(process.env.FORJA_SIM_SPEED ?? 1);
  return Number.isFinite(v) && v > 0 ? v : 1;
}

const K = {
  delay: 71,
  fail: 72,
  failAt: 73,
  failReason: 74,
  stop: 75,
  term: 76,
  spot: 77,
  spotAt: 78,
} as const;
/** About 3 % of provisioning attempts fail, as on real fleets (bad node, image pull, driver health check). */
export const FAILURE_RATE = 0.03;

/**
 * FORJA_SIM_FAILURE_RATE (0–1, default FAILURE_RATE) overrides that share: 0 for a demo or a test that is not
 * about failed starts (a 3 % draw otherwise fails such a test one run in 33). Read on each call, as the speed.
 */
export function simFailureRate(): number {
  const raw = process.env.FORJA_SIM_FAILURE_RATE;
  if (raw === undefined || raw === "") return FAILURE_RATE;
  const v = Number(raw);
  return Number.isFinite(v) && v >= 0 && v <= 1 ? v : FAILURE_RATE;
}
/** Spot interruptions: a Poisson process with this many expected interruptions per running hour. */
export const SPOT_INTERRUPTIONS_PER_HOUR = 0.02;

const FAILURE_REASONS = [
  "Image pull failed: registry timed out after 3 retries",
  "GPU health check failed on the node (Xid 79: GPU has fallen off the bus)",
  "Node did not become ready within the provisioning window",
  "Container exited during start-up (exit code 137: out of host memory)",
];

/** Seconds from placement to a ready workload before the speed-up: bigger machines take longer to start. */
function baseProvisionSeconds(inst: ProviderInstance, u: number): number {
  const [lo, hi] = inst.kind === "notebook" ? [20, 90] : [30, 120];
  const size = inst.slicesPerGpu < 7 ? 0.8 : 1 + 0.35 * Math.log2(Math.max(1, inst.gpuCount));
  return (lo + u * (hi - lo)) * size;
}

export function planSimulatedProvisioning(inst: ProviderInstance, now: Date): ProvisionPlan {
  // Keyed on the attempt's time too, so a restarted instance gets a fresh draw, yet the same call repeats.
  const attempt = Math.floor(now.getTime() / 1000);
  const seconds = baseProvisionSeconds(inst, hashUnit(inst.simSeed, K.delay, attempt)) / simSpeed();
  if (hashUnit(inst.simSeed, K.fail, attempt) < simFailureRate()) {
    const share = 0.3 + 0.7 * hashUnit(inst.simSeed, K.failAt, attempt);
    const reason =
      FAILURE_REASONS[Math.floor(hashUnit(inst.simSeed, K.failReason, attempt) * FAILURE_REASONS.length)];
    return {
      outcome: "failed",
      at: new Date(now.getTime() + seconds * share * 1000),
      reason: reason as string,
    };
  }
  return { outcome: "ready", at: new Date(now.getTime() + seconds * 1000) };
}

export function simulatedStopDelayMs(inst: ProviderInstance): number {
  return ((5 + 15 * hashUnit(inst.simSeed, K.stop)) * 1000) / simSpeed();
}

export function simulatedTerminateDelayMs(inst: ProviderInstance): number {
  return ((3 + 9 * hashUnit(inst.simSeed, K.term)) * 1000) / simSpeed();
}

/** A stable per-instance token: the simulated Jupyter server has no secret store to hand one out. */
function notebookToken(inst: ProviderInstance): string {
  return createHash("sha256").update(`forja-sim:${inst.id}:${inst.simSeed}`).digest("hex").slice(0, 32);
}

export function simulatedConnection(inst: ProviderInstance): Record<string, string> {
  const host = inst.id.replace(/-/g, "").slice(0, 12);
  if (inst.kind === "notebook") {
    const token = notebookToken(inst);
    return { url: `https://nb-${host}.sim.forja.local/lab?token=${token}`, token };
  }
  return { endpoint: `https://ct-${host}.sim.forja.local`, ssh: `ssh root@ct-${host}.sim.forja.local` };
}

const HOUR_MS = 3_600_000;

/**
 * The first spot interruption in (from, to], or null. Each hour independently holds an interruption with the
 * Poisson probability 1 − e^(−λ), at a seeded moment inside the hour, so the answer depends only on the window.
 */
export function simulatedSpotInterruption(inst: ProviderInstance, from: Date, to: Date): Date | null {
  if (inst.pricingModel !== "spot") return null;
  const p = 1 - Math.exp(-SPOT_INTERRUPTIONS_PER_HOUR);
  const lo = Math.max(from.getTime(), inst.startedAt?.getTime() ?? from.getTime());
  const hi = to.getTime();
  for (let h = Math.floor(lo / HOUR_MS); h <= Math.floor(hi / HOUR_MS); h++) {
    if (hashUnit(inst.simSeed, K.spot, h) >= p) continue;
    const at = h * HOUR_MS + Math.floor(hashUnit(inst.simSeed, K.spotAt, h) * HOUR_MS);
    if (at > lo && at <= hi) return new Date(at);
  }
  return null;
}
