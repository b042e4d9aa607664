/**
 * `npm run slurm:dev`: a throwaway Slurm cluster on this machine (test/slurm/cluster.ts: munged, slurmctld and
 * three slurmd with placeholder GPUs, partitions region-a / region-a-spot / region-b) for trying the Slurm
 * provider with `npm start`. Prints the FORJA_SLURM value; Ctrl-C stops every daemon by pid and removes the folder.
 * `--region-a <code>` / `--region-b <code>` choose the Forja regions attached (defaults: eu-fi-hel1, uk-lon1).
 */
import { startTestCluster } from "@/test/slurm/cluster";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
};

try {
  const c = await startTestCluster();
  const config = {
    cluster: c.clusterName,
    conf: c.confPath,
    spoolDir: c.spoolDir,
    regions: {
      [arg("--region-a", "eu-fi-hel1")]: {
        partition: c.partitions.regionA,
        spotPartition: c.partitions.regionASpot,
      },
      [arg("--region-b", "uk-lon1")]: { partition: c.partitions.regionB },
    },
    gpuTypes: { a100: "a100-80gb" },
    metricsPath: c.standInBin,
  };
  console.log(`Slurm cluster ${c.clusterName} is up (${c.nodes.join(", ")}); folder ${c.dir}`);
  console.log(`Client commands: SLURM_CONF=${c.confPath} squeue`);
  console.log(`Start Forja on it:\n\n  FORJA_SLURM='${JSON.stringify(config)}' npm start\n`);
  console.log("Ctrl-C stops the cluster.");
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log("Stopping the cluster…");
    c.stop().then(
      () => {
        console.log("Cluster stopped; folder removed.");
        process.exit(0);
      },
      (err) => {
        console.error("Stopping the cluster failed:", err);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setInterval(() => {}, 1 << 30);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
