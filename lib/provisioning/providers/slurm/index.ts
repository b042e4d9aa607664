import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type {
  Engine,
  EngineNode,
  LogLine,
  MetricSample,
  Provider,
  ProviderInstance,
  WorkloadStatus,
} from "../types";
import { type SlurmCli, slurmCli } from "./cli";
import type { SlurmConfig } from "./config";
import { instanceIdOfJobName, jobScript, sbatchArgs, workDir } from "./job-script";
import { readLogs } from "./logs";
import { NVIDIA_SMI_ARGS, parseNvidiaSmi, toSamples } from "./nvidia-smi";
import {
  gpuTypeOf,
  nodeStatusOf,
  parseJobGresIdx,
  parseSinfo,
  parseSqueue,
  phaseOf,
  physicalGpuOfDevice,
  SEP,
  SINFO_FORMAT,
  type SinfoNode,
  SQUEUE_FORMAT,
} from "./parse";

export { type SlurmConfig, slurmConfigFromEnv, slurmConfigSchema } from "./config";
export { NVIDIA_SMI_ARGS, parseNvidiaSmi, toSamples } from "./nvidia-smi";

/**
 * A region backed by a Slurm cluster, through the Slurm client commands (docs/adr/0007-slurm-provider.md says
 * why not slurmrestd). Slurm places: Forja admits (quota, budget, residency, price) and the shared engine pass
 * (lib/provisioning/engine-sync.ts) submits, follows and cancels the jobs this engine describes.
 */
export function createSlurmProvider(config: SlurmConfig, cli: SlurmCli = slurmCli(config)): Provider {
  const fqName = (slurmName: string) => `${slurmName}.${config.cluster}`;
  const slurmName = (forjaName: string) =>
    forjaName.endsWith(`.${config.cluster}`) ? forjaName.slice(0, -config.cluster.length - 1) : forjaName;
  // The last sinfo per node: the GRES layout (MIG device → board) and the address a notebook is reached at.
  const nodes = new Map<string, SinfoNode>();

  async function sinfo(): Promise<SinfoNode[]> {
    const list = parseSinfo(await cli("sinfo", ["-N", "-h", "-o", SINFO_FORMAT]));
    for (const n of list) nodes.set(n.name, n);
    return list;
  }

  const engine: Engine = {
    clusterName: config.cluster,
    enforcesMaxRuntime: true,

    async discoverNodes(regionCode) {
      const region = config.regions[regionCode];
      if (!region) return [];
      const parts = new Set([region.partition, region.spotPartition].filter(Boolean));
      const out: EngineNode[] = [];
      for (const n of await sinfo()) {
        if (!n.partitions.some((p) => parts.has(p))) continue;
        const types = n.gres.map((g) => ({ ...g, t: gpuTypeOf(g.type, config.gpuTypes) }));
        const first = types[0];
        if (!first) continue; // a CPU-only node is not part of a GPU fleet
        const board = physicalGpuOfDevice(n.gres, config.gpuTypes);
        const gpuCount = board.length === 0 ? 0 : Math.max(...board) + 1;
        const mig = new Set<number>();
        let d = 0;
        for (const g of types)
          for (let i = 0; i < g.count; i++, d++) if (g.t.migProfile) mig.add(board[d] as number);
        out.push({
          name: fqName(n.name),
          gpuModelId: first.t.model,
          gpuCount,
          migGpuIndexes: [...mig].sort((a, b) => a - b),
          vcpus: n.cpus,
          ramGib: Math.floor(n.memoryMb / 1024),
          status: nodeStatusOf(n.state),
          engineState: n.state,
          engineReason: n.reason,
        });
      }
      return out;
    },

    async submit(work) {
      const dir = workDir(config, work.id);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.rmSync(path.join(dir, "connection.json"), { force: true });
      if (work.kind === "notebook") {
        fs.writeFileSync(path.join(dir, "token"), randomBytes(24).toString("hex"), { mode: 0o600 });
      }
      const out = await cli("sbatch", sbatchArgs(work, config), { input: jobScript(work, config) });
      const id = out.trim().split(";")[0];
      if (!id || !/^\d+$/.test(id)) throw new Error(`sbatch printed no job id: ${out.trim()}`);
      return id;
    },

    async observe(_regionCode, refs) {
      const want = new Set(refs);
      const jobs = parseSqueue(await cli("squeue", ["-h", "-t", "all", "-o", SQUEUE_FORMAT])).filter((j) =>
        want.has(j.id),
      );
      const pending = jobs.filter((j) => phaseOf(j.state) === "pending");
      const running = jobs.filter((j) => phaseOf(j.state) === "running");
      // Expected starts from squeue --start; the position is the job's rank among its partition's pending work.
      const starts = new Map<string, Date | null>();
      if (pending.length > 0) {
        for (const j of parseSqueue(await cli("squeue", ["--start", "-h", "-o", SQUEUE_FORMAT])))
          starts.set(j.id, j.start);
      }
      const allPending =
        pending.length > 0 ? parseSqueue(await cli("squeue", ["-h", "-t", "PD", "-o", SQUEUE_FORMAT])) : [];
      const idx: Map<string, { node: string; idx: number[] }> =
        running.length > 0 ? parseJobGresIdx(await cli("scontrol", ["-d", "-o", "show", "job"])) : new Map();
      if (running.length > 0 && nodes.size === 0) await sinfo();
      const out = new Map<string, WorkloadStatus>();
      for (const j of jobs) {
        const phase = phaseOf(j.state);
        const instanceId = instanceIdOfJobName(j.name);
        let position: number | null = null;
        if (phase === "pending") {
          const ahead = allPending
            .filter((p) => p.partition === j.partition)
            .sort((a, b) => b.priority - a.priority || Number(a.id) - Number(b.id));
          position = ahead.findIndex((p) => p.id === j.id) + 1 || null;
        }
        const held = idx.get(j.id);
        const node = held?.node ?? j.node;
        const sn = node ? nodes.get(node) : undefined;
        const board = sn ? physicalGpuOfDevice(sn.gres, config.gpuTypes) : [];
        const gpuIndexes = [...new Set((held?.idx ?? []).map((i) => board[i] ?? i))];
        out.set(j.id, {
          ref: j.id,
          phase,
          reason: phase === "pending" || phase === "failed" ? j.reason : null,
          nodeName: node ? fqName(node) : null,
          gpuIndexes,
          expectedStart: phase === "pending" ? (starts.get(j.id) ?? j.start) : null,
          queuePosition: position,
          connection: phase === "running" && instanceId ? readConnection(instanceId, sn?.addr ?? node) : null,
          // %S of a started job is its StartTime.
          startedAt: phase === "running" ? j.start : null,
        });
      }
      return out;
    },

    async cancel(ref) {
      try {
        await cli("scancel", [ref]);
      } catch (err) {
        // Already over: nothing to cancel.
        if (!/Invalid job id|already completing|Job\/step already/i.test(String(err))) throw err;
      }
    },

    async setNodeStatus(nodeName, status, reason) {
      const state = status === "draining" ? "DRAIN" : status === "down" ? "DOWN" : "RESUME";
      const args = ["update", `NodeName=${slurmName(nodeName)}`, `State=${state}`];
      if (state !== "RESUME") args.push(`Reason=${reason}`);
      await cli("scontrol", args);
    },
  };

  /**
   * Connection details once the job wrote connection.json: a notebook's URL and token (once Jupyter answered),
   * a server's `endpoint` (its node and assigned port; Forja's readiness probe says when it answers).
   */
  function readConnection(
    instanceId: string,
    host: string | null | undefined,
  ): Record<string, string> | null {
    const dir = workDir(config, instanceId);
    try {
      const { port } = JSON.parse(fs.readFileSync(path.join(dir, "connection.json"), "utf8")) as {
        port: number;
      };
      if (!fs.existsSync(path.join(dir, "token"))) {
        return { endpoint: `http://${host ?? "localhost"}:${port}`, port: String(port) };
      }
      const token = fs.readFileSync(path.join(dir, "token"), "utf8").trim();
      // The token stays out of the URL (URLs end up in histories and logs); Jupyter's page asks for it.
      return { url: `http://${host ?? "localhost"}:${port}/tree`, token };
    } catch {
      return null;
    }
  }

  async function fetchSamples(insts: ProviderInstance[], now: Date): Promise<Map<string, MetricSample[]>> {
    const out = new Map<string, MetricSample[]>();
    const running = insts.filter((i) => i.providerRef);
    const idx: Map<string, { node: string; idx: number[] }> =
      running.length > 0 ? parseJobGresIdx(await cli("scontrol", ["-d", "-o", "show", "job"])) : new Map();
    await Promise.all(
      running.map(async (inst) => {
        const ref = inst.providerRef as string;
        const env = { PATH: [config.metricsPath, "/usr/local/bin:/usr/bin:/bin"].filter(Boolean).join(":") };
        try {
          // A step inside the job's allocation: nvidia-smi sees what the job holds (with ConstrainDevices, only it).
          const text = await cli(
            "srun",
            [
              "--overlap",
              `--jobid=${ref}`,
              "--nodes=1",
              "--ntasks=1",
              `--export=PATH=${env.PATH}`,
              "nvidia-smi",
              ...NVIDIA_SMI_ARGS,
            ],
            { env },
          );
          const readings = parseNvidiaSmi(text);
          const held = idx.get(ref)?.idx ?? null;
          const hostIndexes = readings.length > inst.gpuCount && held ? held : null;
          out.set(inst.id, toSamples(readings, now, { hostIndexes, gpuCount: inst.gpuCount }));
        } catch (err) {
          console.error(`[slurm] no metrics for job ${ref}: ${err instanceof Error ? err.message : err}`);
        }
      }),
    );
    return out;
  }

  return {
    name: "slurm",
    placement: "cluster",
    engine,
    // Forja's scheduler and deadline passes stand aside in a cluster-placed region; these keep the old callers
    // (stop, terminate) meaningful: the deadline only bounds the wait shown, the engine pass confirms the end.
    planProvisioning: (_inst, now) => ({ outcome: "ready", at: now }),
    stopDelayMs: () => 30_000,
    terminateDelayMs: () => 30_000,
    connectionFor: () => ({}),
    samples: () => [],
    logs: () => [],
    spotInterruptionIn: () => null,
    fetchSamples,
    fetchLogs: async (inst, from, to, limit): Promise<LogLine[]> =>
      readLogs(workDir(config, inst.id), from, to, limit),
  };
}

export { SEP };
