import type { MetricSample, Provider, ProviderInstance } from "../types";
import { tailLogs } from "./logs";
import { samplesByPod, scrapeDcgm } from "./metrics";
import type { RegionRuntime } from "./runtime";

/**
 * A region on Kubernetes as Forja's provider. The cluster's scheduler places (placement "cluster"), so the
 * timing questions the simulator answers are never asked; state comes from the sync pass (sync.ts), metrics
 * from the DCGM exporter and logs from the pod log API.
 */
export function createKubernetesProvider(rt: RegionRuntime): Provider {
  return {
    name: "kubernetes",
    placement: "cluster",
    // Never asked for a cluster-placed region (the scheduler skips it); a pod comes up when the cluster says.
    planProvisioning: (_inst, now) => ({ outcome: "ready", at: now }),
    // Stopping/terminating end when the pod is gone (the sync pass); the deadline is only a display hint.
    stopDelayMs: () => 30_000,
    terminateDelayMs: () => 30_000,
    connectionFor: () => ({}),
    samples: () => [],
    logs: () => [],
    spotInterruptionIn: () => null,
    async fetchSamples(insts: ProviderInstance[], now: Date): Promise<Map<string, MetricSample[]>> {
      const { texts } = await scrapeDcgm(rt.cfg.dcgmExporterUrls);
      const byPod = samplesByPod(texts, now);
      const out = new Map<string, MetricSample[]>();
      for (const inst of insts) {
        // Pod names are forja-<first 12 hex of the instance id>-<run>: no watch needed in this process.
        const prefix = `forja-${inst.id.replace(/-/g, "").slice(0, 12)}-`;
        for (const [key, samples] of byPod) {
          if (key.split("/")[1]?.startsWith(prefix)) out.set(inst.id, samples);
        }
      }
      return out;
    },
    fetchLogs: (inst, from, to, limit) => tailLogs(rt, inst.id, from, to, limit),
  };
}
