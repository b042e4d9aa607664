import { simulatedProvider } from "./simulated";
import type { Provider } from "./types";

export { createFixedProvider, type FixedProviderOptions } from "./fixed";
export type { LogLine, MetricSample, Provider, ProviderInstance, ProvisionPlan } from "./types";

// Process-wide: the worker, the web server and the tests each pick the provider once at start-up.
let current: Provider | null = null;
// Regions an operator attached to another engine (a Kubernetes cluster, a Slurm cluster); the rest use `current`.
const byRegion = new Map<string, Provider>();

/**
 * The provider lifecycle transitions ask about timing and connection details: the region's engine when one is
 * attached to it, else the simulated fleet unless something installed another. Its delays shrink with
 * FORJA_SIM_SPEED (e2e runs use e.g. 30).
 */
export function getProvider(regionCode?: string): Provider {
  const attached = regionCode === undefined ? undefined : byRegion.get(regionCode);
  if (attached) return attached;
  current ??= simulatedProvider;
  return current;
}

/** Attach a region to an engine (null detaches it). The worker and the web server do it at start-up. */
export function setRegionProvider(regionCode: string, provider: Provider | null): void {
  if (provider) byRegion.set(regionCode, provider);
  else byRegion.delete(regionCode);
}

/** Regions whose engine places and drives its own workloads: Forja's scheduler and deadline pass skip them. */
export function clusterPlacedRegions(): string[] {
  return [...byRegion].filter(([, p]) => p.placement === "cluster").map(([code]) => code);
}

/** Replace the provider (tests install a fixed one; a deployment may install Kubernetes); null = default. */
export function setProvider(provider: Provider | null): void {
  current = provider;
}
