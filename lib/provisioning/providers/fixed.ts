import type { LogLine, MetricSample, Provider, ProviderInstance, ProvisionPlan } from "./types";

export type FixedProviderOptions = {
  provisionMs?: number;
  stopMs?: number;
  terminateMs?: number;
  /** A reason when provisioning of this instance should fail; null = it comes up. */
  failReason?: (inst: ProviderInstance) => string | null;
  /** The spot interruption time of an instance, if any (reported when it falls in the asked window). */
  spotInterruptionAt?: (inst: ProviderInstance) => Date | null;
};

/**
 * A provider with fixed delays and no randomness: lifecycle and scheduler tests state exactly when things
 * happen. It reports no metrics or logs.
 */
export function createFixedProvider(opts: FixedProviderOptions = {}): Provider {
  const provisionMs = opts.provisionMs ?? 30_000;
  return {
    name: "fixed",
    planProvisioning(inst: ProviderInstance, now: Date): ProvisionPlan {
      const at = new Date(now.getTime() + provisionMs);
      const reason = opts.failReason?.(inst) ?? null;
      return reason ? { outcome: "failed", at, reason } : { outcome: "ready", at };
    },
    stopDelayMs: () => opts.stopMs ?? 10_000,
    terminateDelayMs: () => opts.terminateMs ?? 5_000,
    connectionFor: (inst): Record<string, string> =>
      inst.kind === "notebook"
        ? { url: `https://nb-${inst.id.slice(0, 8)}.fixed.local/lab`, token: "fixed-token" }
        : { endpoint: `https://ct-${inst.id.slice(0, 8)}.fixed.local` },
    samples: (): MetricSample[] => [],
    logs: (): LogLine[] => [],
    spotInterruptionIn(inst, from, to) {
      const at = opts.spotInterruptionAt?.(inst) ?? null;
      return at && at > from && at <= to ? at : null;
    },
  };
}
