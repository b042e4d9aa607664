import "server-only";
import { systemCtx } from "@/lib/core";
import type { Provider } from "../types";
import { type KubernetesRegionConfig, loadKubernetesConfig } from "./config";
import { createKubernetesProvider } from "./provider";
import { createRuntime, type RegionRuntime, stopRuntime } from "./runtime";
import { type SyncResult, syncKubernetesRegion } from "./sync";

export {
  type KubernetesRegionConfig,
  type KubernetesRegionInput,
  loadKubernetesConfig,
  parseKubernetesRegion,
} from "./config";
export {
  buildReplicaDeployment,
  type ReplicaService,
  type ReplicaWorkload,
  SERVICE_LABEL,
} from "./deployments";
export { instanceManifests, type ManifestExport, manifestsYaml, REDACTED } from "./export";
export { buildManifests, type Manifests, type WorkloadSpec } from "./manifests";
export { PERMISSION_GROUPS, PROVIDER_PERMISSIONS } from "./rbac";
export {
  createKubernetesProvider,
  createRuntime,
  type RegionRuntime,
  type SyncResult,
  stopRuntime,
  syncKubernetesRegion,
};

type SetRegionProvider = (region: string, p: Provider | null) => void;
const attached = new Map<string, { rt: RegionRuntime; set: SetRegionProvider }>();

/**
 * Attach a region to a cluster in this process (tests pass a kubeconfig; deployments use the config file).
 * `set` is the provider registry's setRegionProvider, passed in so this module never imports the registry.
 */
export function attachKubernetesRegion(
  set: SetRegionProvider,
  cfg: KubernetesRegionConfig,
  opts: { kubeconfigYaml?: string } = {},
): RegionRuntime {
  const rt = createRuntime(cfg, opts);
  attached.set(cfg.region, { rt, set });
  set(cfg.region, createKubernetesProvider(rt));
  return rt;
}

export function detachKubernetesRegion(region: string): void {
  const a = attached.get(region);
  if (!a) return;
  stopRuntime(a.rt);
  attached.delete(region);
  a.set(region, null);
}

/** The regions of FORJA_KUBERNETES_CONFIG, attached once per process (worker and web server alike). */
export function attachConfiguredKubernetesRegions(set: SetRegionProvider, env = process.env): string[] {
  for (const cfg of loadKubernetesConfig(env))
    if (!attached.has(cfg.region)) attachKubernetesRegion(set, cfg);
  return [...attached.keys()];
}

/** The worker's pass over every attached region; one region's failure does not stop the others. */
export async function syncKubernetesRegions(now = new Date()): Promise<Record<string, SyncResult | string>> {
  const out: Record<string, SyncResult | string> = {};
  for (const [region, { rt }] of attached) {
    try {
      out[region] = await syncKubernetesRegion(systemCtx("provider", { now: () => now }), rt);
    } catch (err) {
      out[region] = String((err as Error)?.message ?? err);
      console.error(`[kubernetes] ${region}: ${out[region]}`);
    }
  }
  return out;
}
