/**
 * The engine-backed regions of the browser tests, each a region of its own so no other journey's region changes
 * engine:
 * - Slurm: a real cluster on this host (test/slurm/cluster.ts: munged, slurmctld, slurmd with placeholder H100
 *   GRES) attached through FORJA_SLURM. CI installs Slurm (.ci/run) and must run the journey; elsewhere, without
 *   the binaries, the journey is skipped and says how to install them.
 * - Kubernetes: the API server stand-in of the tests (test/support/kube-standin, every object validated against
 *   the Kubernetes schemas, a small scheduler/kubelet, a DCGM exporter for its pods' GPUs) with two H100 nodes,
 *   attached through FORJA_KUBERNETES_CONFIG.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { regions } from "@/lib/db/schema";
import { assertSlurmInstalled, startTestCluster, type TestCluster } from "@/test/slurm/cluster";
import { startKubeStandIn } from "@/test/support/kube-standin";

/** Regions only the engine journeys use (the catalog's code shape: the EU filter journey checks it). */
export const SLURM_REGION = "eu-se-hpc1";
export const KUBERNETES_REGION = "eu-nl-k8s1";
const H100_PRODUCT = "NVIDIA-H100-80GB-HBM3";

export type E2ESlurm = { cluster: TestCluster; forjaSlurm: string };

/** Starts the cluster, or returns the reason it cannot (never in CI, where a missing Slurm fails the run). */
export async function startE2ESlurm(): Promise<E2ESlurm | { skipped: string }> {
  try {
    assertSlurmInstalled();
  } catch (err) {
    if (process.env.CI) throw err;
    return { skipped: (err as Error).message };
  }
  // One node of 4 GPUs: the journey fills it and queues behind it within the default quota of 8 GPUs.
  const cluster = await startTestCluster({ nodesA: 1, gpusPerNode: 4 });
  const forjaSlurm = JSON.stringify({
    cluster: cluster.clusterName,
    conf: cluster.confPath,
    spoolDir: cluster.spoolDir,
    regions: { [SLURM_REGION]: { partition: cluster.partitions.regionA } },
    metricsPath: cluster.standInBin,
  });
  return { cluster, forjaSlurm };
}

/**
 * The stand-in with two 8 × H100 nodes, ticking every second, and its DCGM exporter (the GPUs of the running pods);
 * the config file lands in `dir`.
 */
export async function startE2EKubernetes(dir: string) {
  const standIn = await startKubeStandIn({ tickMs: 1000, dcgm: true });
  for (const name of ["gpu-ams-1", "gpu-ams-2"])
    standIn.kubelet.addNode({ name, product: H100_PRODUCT, gpus: 8, region: "eu-nl", zone: "eu-nl-a" });
  const kubeconfig = path.join(dir, "kubeconfig");
  fs.writeFileSync(kubeconfig, standIn.kubeconfig, { mode: 0o600 });
  const configFile = path.join(dir, "kubernetes.json");
  const region = {
    region: KUBERNETES_REGION,
    kubeconfig,
    productModels: { [H100_PRODUCT]: "h100" },
    dcgmExporterUrls: [standIn.dcgmUrl],
  };
  fs.writeFileSync(configFile, JSON.stringify({ regions: [region] }));
  return { configFile, stop: standIn.stop };
}

/** The regions and their H100 prices (before the quota seed, so organizations get the default quota there too). */
export async function seedEngineRegions(tx: Tx): Promise<void> {
  const place = { jurisdiction: "EU", pue: 1.1, gridGco2PerKwh: 40 };
  await tx
    .insert(regions)
    .values([
      { ...place, code: SLURM_REGION, name: "Stockholm HPC (Slurm)", city: "Stockholm", country: "SE" },
      { ...place, code: KUBERNETES_REGION, name: "Amsterdam (Kubernetes)", city: "Amsterdam", country: "NL" },
    ])
    .onConflictDoNothing();
  for (const code of [SLURM_REGION, KUBERNETES_REGION]) {
    await tx.execute(sql`
      insert into prices (instance_type_id, region_code, pricing_model, usd_per_hour, effective_from)
      select p.instance_type_id, ${code}, p.pricing_model, p.usd_per_hour, p.effective_from
      from prices p join instance_types t on t.id = p.instance_type_id
      where p.region_code = 'eu-de-fra1' and t.gpu_model_id = 'h100' and t.mig_profile is null
        and p.pricing_model = 'on_demand' and p.effective_to is null
      on conflict do nothing`);
  }
}
