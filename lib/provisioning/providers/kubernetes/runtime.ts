import type { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { coreApi, kubeConfigFor } from "./client";
import type { KubernetesRegionConfig } from "./config";
import { managedSelector } from "./names";
import { PodWatch, type PodWatchOptions } from "./watcher";

/** What one process keeps per attached region: the client, the pod watch, the namespaces it knows exist. */
export type RegionRuntime = {
  cfg: KubernetesRegionConfig;
  kc: KubeConfig;
  api: CoreV1Api;
  watch: PodWatch | null;
  namespaces: Set<string>;
  /** Instances whose pod this process deleted on purpose (stop, terminate): not a preemption. */
  deleting: Set<string>;
  /** Sync passes run by this process (the first one sweeps for leftovers of a crashed worker). */
  passes?: number;
};

export function createRuntime(
  cfg: KubernetesRegionConfig,
  opts: { kubeconfigYaml?: string; backoffMinMs?: number; resyncMs?: number } = {},
): RegionRuntime {
  const kc = kubeConfigFor(cfg, opts.kubeconfigYaml);
  return { cfg, kc, api: coreApi(kc), watch: null, namespaces: new Set(), deleting: new Set() };
}

/** The watch starts on the first sync pass (the worker), not in web processes that only read logs. */
export function ensureWatch(rt: RegionRuntime, opts: PodWatchOptions = {}): PodWatch {
  if (!rt.watch) {
    rt.watch = new PodWatch(rt.kc, managedSelector(rt.cfg.region), opts);
    rt.watch.start();
  }
  return rt.watch;
}

export function stopRuntime(rt: RegionRuntime): void {
  rt.watch?.stop();
  rt.watch = null;
}
