import { simulatedProvider } from "./simulated";
import type { Provider } from "./types";

export { createFixedProvider, type FixedProviderOptions } from "./fixed";
export type { LogLine, MetricSample, Provider, ProviderInstance, ProvisionPlan } from "./types";

// Process-wide: the worker, the web server and the tests each pick the provider once at start-up.
let current: Provider | null = null;

/**
 * The provider lifecycle transitions ask about timing and connection details: the simulated fleet unless
 * something installed another. Its delays shrink with FORJA_SIM_SPEED (e2e runs use e.g. 30).
 */
export function getProvider(): Provider {
  current ??= simulatedProvider;
  return current;
}

/** Replace the provider (tests install a fixed one; a deployment may install Kubernetes); null = default. */
export function setProvider(provider: Provider | null): void {
  current = provider;
}
