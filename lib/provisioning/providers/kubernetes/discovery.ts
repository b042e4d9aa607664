import type { V1Node } from "@kubernetes/client-node";
import type { KubernetesRegionConfig } from "./config";

export type DiscoveredNode = {
  name: string;
  /** GPU feature discovery's nvidia.com/gpu.product, e.g. "NVIDIA-H100-80GB-HBM3". */
  product: string | null;
  /** The Forja GPU model it maps to (config.productModels, else guessed from the product); null = not a GPU node. */
  modelId: string | null;
  /** Physical GPUs (GFD's nvidia.com/gpu.count, else what the device plugin advertises). */
  gpuCount: number;
  /** Whole GPUs the device plugin advertises as allocatable (nvidia.com/gpu). */
  wholeAllocatable: number;
  /** MIG profiles allocatable under the mixed strategy: "1g.10gb" → 7. */
  mig: Record<string, number>;
  migStrategy: string | null;
  gpuMemoryMib: number | null;
  region: string | null;
  zone: string | null;
  spot: boolean;
  vcpus: number;
  ramGib: number;
  /** cordoned → draining, NotReady → down. */
  status: "active" | "draining" | "down";
};

const MIG_RESOURCE = /^nvidia\.com\/mig-(\d+g\.\d+gb(?:\+[a-z]+)?)$/;

function qty(v: string | undefined): number {
  if (!v) return 0;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 0;
}

/** Kubernetes memory quantities ("1056Gi", "1081344Mi", "1134000000Ki") in GiB, rounded down. */
function gib(v: string | undefined): number {
  const m = /^(\d+)(Ki|Mi|Gi|Ti|k|M|G)?$/.exec(v ?? "");
  if (!m) return 0;
  const f: Record<string, number> = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    k: 1e3,
    M: 1e6,
    G: 1e9,
  };
  return Math.floor((Number(m[1]) * (f[m[2] ?? ""] ?? 1)) / 2 ** 30);
}

/** "NVIDIA-H100-80GB-HBM3" → "h100", "NVIDIA-A100-SXM4-40GB" → "a100"; config wins over the guess. */
export function modelOfProduct(cfg: KubernetesRegionConfig, product: string | null): string | null {
  if (!product) return null;
  const configured = cfg.productModels[product];
  if (configured) return configured;
  const m = /(?:^|-)([A-Z]+\d+[A-Z]*)(?:-|$)/i.exec(product.replace(/^NVIDIA-/i, ""));
  return m?.[1] ? m[1].toLowerCase() : null;
}

export function isSpot(cfg: KubernetesRegionConfig, node: V1Node): boolean {
  const labels = node.metadata?.labels ?? {};
  if (Object.entries(cfg.spotLabels).some(([k, v]) => labels[k] === v)) return true;
  return (node.spec?.taints ?? []).some((t) => cfg.spotTaints.includes(t.key));
}

export function discoverNode(cfg: KubernetesRegionConfig, node: V1Node): DiscoveredNode {
  const labels = node.metadata?.labels ?? {};
  const alloc = node.status?.allocatable ?? {};
  const mig: Record<string, number> = {};
  for (const [k, v] of Object.entries(alloc)) {
    const m = MIG_RESOURCE.exec(k);
    if (m?.[1] && qty(v) > 0) mig[m[1]] = qty(v);
  }
  const wholeAllocatable = qty(alloc["nvidia.com/gpu"]);
  const product = labels["nvidia.com/gpu.product"] ?? null;
  const ready = (node.status?.conditions ?? []).find((c) => c.type === "Ready");
  const status = ready?.status !== "True" ? "down" : node.spec?.unschedulable ? "draining" : "active";
  const migAny = Object.keys(mig).length > 0;
  return {
    name: node.metadata?.name ?? "",
    product,
    modelId: wholeAllocatable > 0 || migAny ? modelOfProduct(cfg, product) : null,
    gpuCount: qty(labels["nvidia.com/gpu.count"]) || wholeAllocatable,
    wholeAllocatable,
    mig,
    migStrategy: labels["nvidia.com/mig.strategy"] ?? null,
    gpuMemoryMib: qty(labels["nvidia.com/gpu.memory"]) || null,
    region: labels["topology.kubernetes.io/region"] ?? null,
    zone: labels["topology.kubernetes.io/zone"] ?? null,
    spot: isSpot(cfg, node),
    vcpus: qty(alloc.cpu),
    ramGib: gib(alloc.memory),
    status,
  };
}
