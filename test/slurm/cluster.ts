/**
 * A real Slurm cluster on this one host, for the integration tests, the Slurm bench and `npm run slurm:dev`:
 * its own munged (key and socket in the temp dir, so nothing depends on /etc/munge), one slurmctld and a few
 * slurmd for virtual nodes (NodeHostname=localhost, a port each), GPUs declared as GRES backed by placeholder
 * device files, and partitions for two regions (one with a preemptible spot partition, PreemptMode=REQUEUE).
 * Everything is stopped by pid at the end. Debian 12's slurm-wlm 22.05 and munge packages.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/db/embedded";

export const SLURM_INSTALL_HINT =
  "Slurm is not installed: sudo apt-get install -y slurm-wlm munge jupyter-notebook (Debian/Ubuntu)";

const BINARIES = [
  "munged",
  "slurmctld",
  "slurmd",
  "sbatch",
  "squeue",
  "sinfo",
  "scontrol",
  "scancel",
  "srun",
];

function which(bin: string): string | null {
  for (const dir of ["/usr/sbin", "/usr/bin", ...(process.env.PATH ?? "").split(":")]) {
    const p = path.join(dir, bin);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

/** Throws the one-line install message when a binary is missing. */
export function assertSlurmInstalled(): void {
  const missing = BINARIES.filter((b) => !which(b));
  if (missing.length > 0) throw new Error(`${SLURM_INSTALL_HINT} (missing: ${missing.join(", ")})`);
}

export type TestClusterNode = { name: string; gres: string; files: Array<{ type: string; count: number }> };

export type TestCluster = {
  dir: string;
  clusterName: string;
  confPath: string;
  /** Shared folder Forja and the jobs both see (job scripts, logs, notebook connection files). */
  spoolDir: string;
  /** Folder with the recorded-output stand-in nvidia-smi. */
  standInBin: string;
  env: NodeJS.ProcessEnv;
  nodes: string[];
  partitions: { regionA: string; regionASpot: string; regionB: string };
  /** Run a Slurm client command against this cluster (tests act "on the cluster" with it). */
  cmd(bin: string, args: string[]): string;
  stop(): Promise<void>;
};

export type TestClusterOptions = {
  /** Nodes of region A (each gpu:h100:gpusPerNode); region B gets one node with MIG GRES. Default 2. */
  nodesA?: number;
  gpusPerNode?: number;
  /** The recorded nvidia-smi output the stand-in prints (test/slurm/recorded/<name>.csv). */
  recordedNvidiaSmi?: string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return;
    await sleep(200);
  }
  throw new Error(`test cluster: ${what} did not happen within ${timeoutMs} ms`);
}

export async function startTestCluster(opts: TestClusterOptions = {}): Promise<TestCluster> {
  assertSlurmInstalled();
  const nodesA = opts.nodesA ?? 2;
  const gpus = opts.gpusPerNode ?? 8;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-slurm-"));
  fs.chmodSync(dir, 0o755);
  // Short and unique: Forja's node rows are named <node>.<cluster>, unique across test files.
  const clusterName = `ft${randomBytes(3).toString("hex")}`;
  const sub = (n: string) => {
    const p = path.join(dir, n);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const mungeDir = sub("munge");
  fs.chmodSync(mungeDir, 0o711);
  const [stateDir, logDir, devDir, spoolDir, standInBin] = ["state", "log", "dev", "jobs", "bin"].map(
    sub,
  ) as [string, string, string, string, string];
  sub("slurmd");
  fs.chmodSync(spoolDir, 0o777);
  const keyFile = path.join(mungeDir, "munge.key");
  fs.writeFileSync(keyFile, randomBytes(1024), { mode: 0o400 });
  const socket = path.join(mungeDir, "munge.socket");
  const pids: Array<{ what: string; file: string }> = [];
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Synchronous from start to end: under `npm run … ` / tsx a Ctrl-C ends the process at its next event-loop turn,
  // so `npm run slurm:dev` must finish stopping before yielding once.
  const stop = async () => {
    // Jobs first: a job's processes outlive slurmd/slurmstepd, so cancel them while the daemons still run.
    const conf = path.join(dir, "slurm.conf");
    const env = { ...process.env, SLURM_CONF: conf };
    const squeue = which("squeue");
    const scancel = which("scancel");
    if (squeue && scancel && fs.existsSync(conf)) {
      const jobs = () =>
        (spawnSync(squeue, ["-h", "-o", "%i"], { env, encoding: "utf8", timeout: 5000 }).stdout ?? "")
          .trim()
          .split(/\s+/)
          .filter(Boolean);
      const ids = jobs();
      if (ids.length) {
        spawnSync(scancel, ids, { env, timeout: 5000 });
        const end = Date.now() + 5000;
        while (jobs().length && Date.now() < end) sleepSync(100);
      }
    }
    for (const p of [...pids].reverse()) {
      const pid = readPid(p.file);
      if (pid === null) continue;
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    const end = Date.now() + 5000;
    while (
      Date.now() < end &&
      pids.some((p) => {
        const pid = readPid(p.file);
        return pid !== null && alive(pid);
      })
    )
      sleepSync(100);
    for (const p of pids) {
      const pid = readPid(p.file);
      if (pid !== null && alive(pid)) process.kill(pid, "SIGKILL");
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };

  try {
    const mungePid = path.join(mungeDir, "munged.pid");
    execFileSync(which("munged") as string, [
      "--force",
      `--socket=${socket}`,
      `--key-file=${keyFile}`,
      `--pid-file=${mungePid}`,
      `--log-file=${path.join(logDir, "munged.log")}`,
      `--seed-file=${path.join(mungeDir, "munged.seed")}`,
    ]);
    pids.push({ what: "munged", file: mungePid });

    const ctldPort = await freePort();
    const slurmdPort = await freePort();
    const nodeNames = Array.from({ length: nodesA }, (_, i) => `${clusterName}a${i + 1}`);
    const migNode = `${clusterName}b1`;
    const ports: number[] = [];
    for (let i = 0; i <= nodesA; i++) ports.push(await freePort());
    const devs = (node: string, n: number, from = 0) => {
      const nd = path.join(devDir, node);
      fs.mkdirSync(nd, { recursive: true });
      for (let i = from; i < from + n; i++) fs.writeFileSync(path.join(nd, `nvidia${i}`), "");
      return nd;
    };
    const nodeLines = nodeNames.map(
      (n, i) =>
        `NodeName=${n} NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports[i]} CPUs=16 RealMemory=64000 Gres=gpu:h100:${gpus} State=UNKNOWN`,
    );
    // Region B: an A100 80GB in MIG mode, its profiles exposed as GRES types (as AutoDetect=nvml names them).
    nodeLines.push(
      `NodeName=${migNode} NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports[nodesA]} CPUs=16 RealMemory=64000 Gres=gpu:a100_3g.40gb:2,gpu:a100_1g.10gb:3 State=UNKNOWN`,
    );
    const gresLines = nodeNames.map(
      (n) => `NodeName=${n} Name=gpu Type=h100 File=${devs(n, gpus)}/nvidia[0-${gpus - 1}]`,
    );
    const migDev = devs(migNode, 5);
    gresLines.push(`NodeName=${migNode} Name=gpu Type=a100_3g.40gb File=${migDev}/nvidia[0-1]`);
    gresLines.push(`NodeName=${migNode} Name=gpu Type=a100_1g.10gb File=${migDev}/nvidia[2-4]`);
    const a = nodeNames.join(",");
    const partitions = { regionA: "region-a", regionASpot: "region-a-spot", regionB: "region-b" };
    const conf = [
      `ClusterName=${clusterName}`,
      "SlurmctldHost=localhost",
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      "AuthType=auth/munge",
      `AuthInfo=socket=${socket}`,
      "CredType=cred/munge",
      "SlurmUser=root",
      "SlurmdUser=root",
      `StateSaveLocation=${stateDir}`,
      `SlurmdSpoolDir=${path.join(dir, "slurmd")}/%n`,
      `SlurmctldPidFile=${path.join(dir, "slurmctld.pid")}`,
      `SlurmdPidFile=${path.join(dir, "slurmd-%n.pid")}`,
      `SlurmctldLogFile=${path.join(logDir, "slurmctld.log")}`,
      `SlurmdLogFile=${path.join(logDir, "slurmd-%n.log")}`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_Core",
      "GresTypes=gpu",
      "AccountingStorageType=accounting_storage/none",
      "JobAcctGatherType=jobacct_gather/none",
      "MpiDefault=none",
      "ReturnToService=2",
      "SlurmdTimeout=30",
      "KillWait=2",
      "SchedulerType=sched/backfill",
      "SchedulerParameters=bf_interval=1,sched_interval=1,sched_min_interval=200000",
      "MinJobAge=600",
      // Virtual nodes declare more CPUs than the host has.
      "SlurmdParameters=config_overrides",
      // Spot: the spot partition's jobs are requeued when a higher-tier partition needs their nodes.
      "PreemptType=preempt/partition_prio",
      "PreemptMode=REQUEUE",
      ...nodeLines,
      `PartitionName=${partitions.regionA} Nodes=${a} Default=YES MaxTime=INFINITE State=UP PriorityTier=10 PreemptMode=OFF`,
      `PartitionName=${partitions.regionASpot} Nodes=${a} MaxTime=INFINITE State=UP PriorityTier=1 PreemptMode=REQUEUE`,
      `PartitionName=${partitions.regionB} Nodes=${migNode} MaxTime=INFINITE State=UP PriorityTier=10 PreemptMode=OFF`,
      "",
    ].join("\n");
    const confPath = path.join(dir, "slurm.conf");
    fs.writeFileSync(confPath, conf);
    fs.writeFileSync(path.join(dir, "gres.conf"), `${gresLines.join("\n")}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: confPath };

    // The stand-in prints recorded real output of the GPU model; see test/slurm/recorded/README.md.
    const recorded = path.resolve(
      import.meta.dirname,
      "recorded",
      `${opts.recordedNvidiaSmi ?? "h100-sxm-8x"}.csv`,
    );
    fs.writeFileSync(
      path.join(standInBin, "nvidia-smi"),
      `#!/bin/sh\n# Stand-in for tests: prints recorded real output (${path.basename(recorded)}).\ncat '${recorded}'\n`,
      { mode: 0o755 },
    );

    execFileSync(which("slurmctld") as string, ["-c", "-f", confPath], { env });
    pids.push({ what: "slurmctld", file: path.join(dir, "slurmctld.pid") });
    for (const n of [...nodeNames, migNode]) {
      execFileSync(which("slurmd") as string, ["-f", confPath, "-N", n], { env });
      pids.push({ what: `slurmd ${n}`, file: path.join(dir, `slurmd-${n}.pid`) });
    }
    const cmd = (bin: string, args: string[]) => {
      const r = spawnSync(which(bin) ?? bin, args, { env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")}: ${r.stderr || r.stdout}`);
      return r.stdout;
    };
    await waitFor(
      "every node idle",
      () => {
        try {
          const out = cmd("sinfo", ["-h", "-N", "-o", "%N %T"]);
          const idle = new Set(
            out
              .trim()
              .split("\n")
              .filter((l) => l.endsWith(" idle"))
              .map((l) => l.split(" ")[0]),
          );
          return idle.size === nodeNames.length + 1;
        } catch {
          return false;
        }
      },
      30_000,
    );
    // A daemon that lost its port to another process exits after registering: say which, not a later timeout.
    await sleep(300);
    for (const p of pids) {
      const pid = readPid(p.file);
      if (pid === null || !alive(pid)) {
        const log = path.join(logDir, `${p.what.replace(" ", "-")}.log`);
        const tail = fs.existsSync(log)
          ? fs.readFileSync(log, "utf8").trim().split("\n").slice(-2).join(" | ")
          : "";
        throw new Error(`${p.what} is not running${tail ? `: ${tail}` : ""}`);
      }
    }
    return {
      dir,
      clusterName,
      confPath,
      spoolDir,
      standInBin,
      env,
      nodes: [...nodeNames, migNode],
      partitions,
      cmd,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
