import fs from "node:fs";
import { z } from "zod";

const regionSchema = z.object({
  /** Partition serving the region's on-demand and reserved work. */
  partition: z.string().min(1),
  /** Spot: a partition of lower PriorityTier with PreemptMode=REQUEUE (or the same partition with spotQos). */
  spotPartition: z.string().min(1).optional(),
  /** Spot as a QOS instead (PreemptType=preempt/qos; the QOS's PreemptMode=REQUEUE). */
  spotQos: z.string().min(1).optional(),
  /** QOS for on-demand work, if the site uses one. */
  qos: z.string().min(1).optional(),
});

export const slurmConfigSchema = z.object({
  /** slurm.conf of the cluster (SLURM_CONF for the client commands); the host's default when absent. */
  conf: z.string().min(1).optional(),
  /** Cluster name: Forja's node rows are "<node>.<cluster>", unique across clusters. */
  cluster: z.string().min(1),
  /** Folder of the Slurm client commands (sbatch, squeue, …); the PATH when absent. */
  binDir: z.string().min(1).optional(),
  /** A folder the Forja host and the compute nodes share: job scripts, logs, notebook connection files. */
  spoolDir: z.string().min(1),
  /** Interpreter with Jupyter on the nodes (Debian's jupyter-notebook: /usr/bin/python3). */
  python: z.string().min(1).default("/usr/bin/python3"),
  regions: z.record(z.string(), regionSchema),
  /** "org": the organization's slug is the Slurm account (sacctmgr accounts named so); "none": no --account. */
  accounts: z.enum(["org", "none"]).default("none"),
  /** GRES type → Forja GPU model, or "<model>:<mig profile>" for a MIG profile (e.g. "a100-80gb:1g.10gb"). */
  gpuTypes: z.record(z.string(), z.string()).default({}),
  /** How images run: "host" (the node's environment), "apptainer" (images maps image → .sif), "pyxis". */
  containerRuntime: z.enum(["host", "apptainer", "pyxis"]).default("host"),
  /** Image id → Apptainer image file or enroot/pyxis image URI; absent → the image's reference. */
  images: z.record(z.string(), z.string()).default({}),
  /** Prepended to PATH for the metrics step (tests: a stand-in nvidia-smi). */
  metricsPath: z.string().min(1).optional(),
});
export type SlurmConfig = z.infer<typeof slurmConfigSchema>;

/**
 * FORJA_SLURM: the JSON itself, or the path of a JSON file (e.g. /etc/forja/slurm.json). Unset = no Slurm.
 * A bad value stops start-up with the field that is wrong, rather than a region that silently stays simulated.
 */
export function slurmConfigFromEnv(value = process.env.FORJA_SLURM): SlurmConfig | null {
  if (!value || value.trim() === "") return null;
  const text = value.trim().startsWith("{") ? value : fs.readFileSync(value, "utf8");
  const parsed = slurmConfigSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`FORJA_SLURM: ${first?.path.join(".") || "(root)"}: ${first?.message ?? "invalid"}`);
  }
  return parsed.data;
}
