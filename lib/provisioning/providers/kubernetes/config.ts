import { readFileSync } from "node:fs";
import { z } from "zod";

/** The spot conventions of the big managed offerings; an operator may add their own. */
export const DEFAULT_SPOT_LABELS: Record<string, string> = {
  "cloud.google.com/gke-spot": "true", // GKE
  "kubernetes.azure.com/scalesetpriority": "spot", // AKS
  "eks.amazonaws.com/capacityType": "SPOT", // EKS managed node groups
  "karpenter.sh/capacity-type": "spot", // EKS with Karpenter
};
export const DEFAULT_SPOT_TAINTS = [
  "cloud.google.com/gke-spot",
  "kubernetes.azure.com/scalesetpriority",
  "forja.dev/spot",
];

const taint = z.object({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.string().optional(),
});

/**
 * One region an operator attaches to a Kubernetes cluster. Everything Forja needs to know about the cluster
 * that it cannot discover: how to reach it, where tenants' workloads go and what the GPU nodes look like.
 */
export const kubernetesRegionSchema = z.object({
  region: z.string().min(1),
  /** A kubeconfig file; absent = the pod's in-cluster service account. */
  kubeconfig: z.string().min(1).optional(),
  context: z.string().min(1).optional(),
  /** `{org}` and `{project}` are replaced by the slugs; one namespace per project by default. */
  namespacePattern: z.string().min(1).default("forja-{org}-{project}"),
  imagePullSecrets: z.array(z.string().min(1)).default([]),
  /** PVCs for the instance's disk; absent = the cluster's default storage class. */
  storageClass: z.string().min(1).optional(),
  /** Image registry prefix replacing `forja/` in the catalog's references (a mirror inside the cluster). */
  imageRegistry: z.string().min(1).optional(),
  /** GPU feature discovery's nvidia.com/gpu.product value → Forja GPU model id. */
  productModels: z.record(z.string(), z.string()).default({}),
  spotLabels: z.record(z.string(), z.string()).default(DEFAULT_SPOT_LABELS),
  spotTaints: z.array(z.string().min(1)).default(DEFAULT_SPOT_TAINTS),
  /** Taints every GPU workload tolerates (the usual nvidia.com/gpu NoSchedule). */
  gpuTaints: z.array(taint).default([{ key: "nvidia.com/gpu", effect: "NoSchedule" }]),
  /** DCGM exporter metrics endpoints (one per node, or a service); scraped once per metrics tick. */
  dcgmExporterUrls: z.array(z.string().url()).default([]),
  /** Notebook URL: `{name}`, `{namespace}` and `{token}` are replaced; the console's proxy or an ingress. */
  notebookUrl: z.string().min(1).default("http://{name}.{namespace}.svc:8888/lab?token={token}"),
  /**
   * Kueue's LocalQueue for Forja's pods (label `kueue.x-k8s.io/queue-name`; Kueue's pod integration must be on).
   * Absent = Kueue does not see them (unless the operator labels the namespaces' pods by policy).
   */
  kueueQueue: z.string().min(1).optional(),
  /** Non-root user the workloads run as (the images' default user in the catalog). */
  runAsUser: z.number().int().min(1).default(1000),
  /** /dev/shm size for PyTorch data loaders, in GiB. */
  shmGib: z.number().int().min(1).default(16),
});
export type KubernetesRegionConfig = z.output<typeof kubernetesRegionSchema>;
export type KubernetesRegionInput = z.input<typeof kubernetesRegionSchema>;

export const kubernetesConfigSchema = z.object({ regions: z.array(kubernetesRegionSchema).min(1) });

export function parseKubernetesRegion(input: KubernetesRegionInput): KubernetesRegionConfig {
  return kubernetesRegionSchema.parse(input);
}

/**
 * FORJA_KUBERNETES_CONFIG names a JSON file `{ "regions": [...] }`; unset = no region runs on Kubernetes.
 * A malformed file stops start-up with the zod issue (a silently ignored region would run on the simulator).
 */
export function loadKubernetesConfig(env = process.env): KubernetesRegionConfig[] {
  const file = env.FORJA_KUBERNETES_CONFIG;
  if (!file) return [];
  const parsed = kubernetesConfigSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`FORJA_KUBERNETES_CONFIG ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.regions;
}
