import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { MetricSample } from "../types";

/** DCGM exporter fields Forja charts; MIG slices report engine activity instead of GPU_UTIL. */
export const DCGM = {
  util: "DCGM_FI_DEV_GPU_UTIL",
  engineActive: "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
  fbUsed: "DCGM_FI_DEV_FB_USED",
  power: "DCGM_FI_DEV_POWER_USAGE",
  temp: "DCGM_FI_DEV_GPU_TEMP",
} as const;

type Gpu = { util?: number; engine?: number; fbMib?: number; power?: number; temp?: number };

/**
 * One scrape of DCGM exporters mapped to pods: the exporter (with the kubelet pod-resources mapping on) labels
 * each GPU's series with the pod and namespace using it. Returns "namespace/pod" → samples per GPU, GPU order
 * by the exporter's gpu index (then MIG instance), at `at`.
 */
export function samplesByPod(texts: string[], at: Date): Map<string, MetricSample[]> {
  const gpus = new Map<string, Map<string, Gpu>>();
  for (const text of texts) {
    for (const fam of parsePrometheusTextFormat(text)) {
      const field = Object.entries(DCGM).find(([, name]) => name === fam.name)?.[0];
      if (!field) continue;
      for (const m of fam.metrics) {
        const l = m.labels ?? {};
        if (!l.pod || !l.namespace) continue;
        const key = `${l.namespace}/${l.pod}`;
        const gpuKey = `${(l.gpu ?? "0").padStart(3, "0")}:${l.GPU_I_ID ?? ""}`;
        const perPod = gpus.get(key) ?? new Map<string, Gpu>();
        const g = perPod.get(gpuKey) ?? {};
        const v = Number(m.value);
        if (!Number.isFinite(v)) continue;
        if (field === "util") g.util = v;
        else if (field === "engineActive") g.engine = v;
        else if (field === "fbUsed") g.fbMib = v;
        else if (field === "power") g.power = v;
        else if (field === "temp") g.temp = v;
        perPod.set(gpuKey, g);
        gpus.set(key, perPod);
      }
    }
  }
  const out = new Map<string, MetricSample[]>();
  for (const [pod, perPod] of gpus) {
    const ordered = [...perPod.entries()].sort(([a], [b]) => a.localeCompare(b));
    out.set(
      pod,
      ordered.map(([, g], gpuIndex) => ({
        gpuIndex,
        at,
        utilizationPct: Math.max(0, Math.min(100, g.util ?? (g.engine ?? 0) * 100)),
        memoryUsedGib: Math.round(((g.fbMib ?? 0) / 1024) * 100) / 100,
        powerWatts: g.power ?? 0,
        temperatureC: g.temp ?? 0,
      })),
    );
  }
  return out;
}

/** Scrape every exporter once; an unreachable one is skipped (its GPUs show a gap, the others still chart). */
export async function scrapeDcgm(
  urls: string[],
  timeoutMs = 5000,
): Promise<{ texts: string[]; failed: string[] }> {
  const texts: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(String(res.status));
        texts.push(await res.text());
      } catch {
        failed.push(url);
      }
    }),
  );
  return { texts, failed };
}
