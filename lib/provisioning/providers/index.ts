import { simulatedProvider } from "./simulated";
import { createSlurmProvider, slurmConfigFromEnv } from "./slurm";
import type { Engine, Provider } from "./types";

export { createFixedProvider, type FixedProviderOptions } from "./fixed";
export type {
  Engine,
  EngineNode,
  EngineWorkload,
  LogLine,
  MetricSample,
  Provider,
  ProviderInstance,
  ProvisionPlan,
  WorkloadPhase,
  WorkloadStatus,
} from "./types";

// Process-wide: the worker, the web server and the tests each pick the provider once at start-up.
let current: Provider | null = null;
// Regions an operator attached to another engine (a Kubernetes cluster, a Slurm cluster); the rest use `current`.
const byRegion = new Map<string, Provider>();
let fromEnvDone = false;

/**
 * FORJA_SLURM attaches a Slurm cluster's regions on first use, in whichever process asks (web server bundles,
 * worker, scripts): each has its own copy of this module, and none has to remember to call a set-up function.
 * Regions attached explicitly (tests) win.
 */
function attachFromEnv(): void {
  if (fromEnvDone) return;
  fromEnvDone = true;
  const cfg = slurmConfigFromEnv();
  if (!cfg) return;
  const slurm = createSlurmProvider(cfg);
  for (const code of Object.keys(cfg.regions)) if (!byRegion.has(code)) byRegion.set(code, slurm);
}

/**
 * The provider lifecycle transitions ask about timing and connection details: the region's engine when one is
 * attached to it, else the simulated fleet unless something installed another. Its delays shrink with
 * FORJA_SIM_SPEED (e2e runs use e.g. 30).
 */
export function getProvider(regionCode?: string): Provider {
  attachFromEnv();
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
  attachFromEnv();
  return [...byRegion].filter(([, p]) => p.placement === "cluster").map(([code]) => code);
}

/** Replace the provider (tests install a fixed one; a deployment may install Kubernetes); null = default. */
export function setProvider(provider: Provider | null): void {
  current = provider;
}

/** Cluster-placed regions handed to the shared engine pass, with their engine. */
export function engineRegions(): Array<{ regionCode: string; engine: Engine }> {
  attachFromEnv();
  const out: Array<{ regionCode: string; engine: Engine }> = [];
  for (const [regionCode, p] of byRegion) if (p.engine) out.push({ regionCode, engine: p.engine });
  return out.sort((a, b) => a.regionCode.localeCompare(b.regionCode));
}

let attaching: Promise<void> | null = null;

/**
 * Attach the regions an operator configured on other engines (FORJA_KUBERNETES_CONFIG), once per process.
 * The engine's module (and its heavy client) is loaded only when configured. The scheduler and reconciler
 * await this before their first pass, so a configured region is never placed by Forja's own scheduler.
 */
export function attachConfiguredEngines(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  attaching ??= (async () => {
    if (!env.FORJA_KUBERNETES_CONFIG) return;
    const k8s = await import("./kubernetes");
    k8s.attachConfiguredKubernetesRegions(setRegionProvider, env);
  })();
  return attaching;
}

/** The worker's pass over every configured Kubernetes region (nothing when none is configured). */
export async function syncConfiguredEngines(now = new Date()): Promise<Record<string, unknown>> {
  await attachConfiguredEngines();
  if (!process.env.FORJA_KUBERNETES_CONFIG) return {};
  const k8s = await import("./kubernetes");
  return k8s.syncKubernetesRegions(now);
}
