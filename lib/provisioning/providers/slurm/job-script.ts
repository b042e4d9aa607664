import path from "node:path";
import type { EngineWorkload } from "../types";
import type { SlurmConfig } from "./config";
import { gresTypeFor } from "./parse";

/** POSIX shell single-quoting: the only way a launch spec's text reaches the script. */
export function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export const jobName = (instanceId: string) => `forja-${instanceId}`;
export const instanceIdOfJobName = (name: string) => (name.startsWith("forja-") ? name.slice(6) : null);
export const workDir = (cfg: Pick<SlurmConfig, "spoolDir">, instanceId: string) =>
  path.join(cfg.spoolDir, instanceId);

/** sbatch options: the region's partition (spot → the preemptible partition/QOS), GRES, time limit, account. */
export function sbatchArgs(work: EngineWorkload, cfg: SlurmConfig): string[] {
  const region = cfg.regions[work.regionCode];
  if (!region) throw new Error(`region ${work.regionCode} is not attached to this Slurm cluster`);
  const spot = work.pricingModel === "spot";
  const gres = gresTypeFor(work.gpuModelId, work.migProfile, cfg.gpuTypes);
  const count = work.migProfile ? 1 : work.gpuCount;
  const dir = workDir(cfg, work.id);
  const args = [
    "--parsable",
    `--job-name=${jobName(work.id)}`,
    `--comment=forja instance=${work.id} org=${work.orgSlug}`,
    `--partition=${spot ? (region.spotPartition ?? region.partition) : region.partition}`,
    `--gres=gpu:${gres}:${count}`,
    "--nodes=1",
    "--ntasks=1",
    // Spot work may be requeued by a preemption; other work is Forja's to requeue, never Slurm's.
    spot ? "--requeue" : "--no-requeue",
    // Forja's own environment (database URL, secrets) must never reach a job.
    "--export=NONE",
    `--chdir=${dir}`,
    `--output=${path.join(dir, "slurm-%j.out")}`,
  ];
  const qos = spot ? region.spotQos : region.qos;
  if (qos) args.push(`--qos=${qos}`);
  if (work.maxRuntimeMinutes) args.push(`--time=${work.maxRuntimeMinutes}`);
  if (cfg.accounts === "org") args.push(`--account=${work.orgSlug}`);
  return args;
}

/** The image's command line under the configured runtime (host environment, Apptainer, or pyxis/enroot). */
function commandLine(work: EngineWorkload, cfg: SlurmConfig): string {
  const argv = work.command ? [work.command, ...(work.args ?? [])] : ["sleep", "infinity"];
  const cmd = argv.map(shq).join(" ");
  const image = cfg.images[work.imageId] ?? work.imageReference;
  if (cfg.containerRuntime === "apptainer") return `apptainer exec --nv ${shq(image)} ${cmd}`;
  if (cfg.containerRuntime === "pyxis") return `srun --overlap --container-image=${shq(image)} ${cmd}`;
  return cmd;
}

/**
 * The batch script. Every line the workload prints is stamped with the time ($EPOCHREALTIME) into stdout.log /
 * stderr.log in the instance's folder: those are the instance's logs. A notebook starts Jupyter with the token
 * Forja wrote to the folder (0600; passed through JUPYTER_TOKEN, never on a command line) and, once Jupyter
 * answers, writes its port to connection.json for Forja to pick up. A container with an exposed port gets a free
 * port of its node in PORT and FORJA_PORT (its command must listen there; the launch spec's port number is
 * not used, since replicas share hosts), written to connection.json before the command starts.
 */
export function jobScript(work: EngineWorkload, cfg: SlurmConfig): string {
  const dir = workDir(cfg, work.id);
  const env = Object.entries(work.env ?? {})
    .filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
    .map(([k, v]) => `export ${k}=${shq(v)}`);
  const head = [
    "#!/bin/bash",
    `# Forja instance ${work.id} (${work.kind}) of ${work.orgSlug}`,
    "export PATH=/usr/local/bin:/usr/bin:/bin",
    `D=${shq(dir)}`,
    'stamp() { while IFS= read -r l; do printf "%s %s\\n" "$EPOCHREALTIME" "$l"; done >> "$D/$1.log"; }',
    "exec > >(stamp stdout) 2> >(stamp stderr)",
    ...env,
  ];
  const py = shq(cfg.python);
  // A free port of the node, asked of the kernel (bind to port 0): several jobs on one host never share one.
  const freePort = `export PORT="$(${py} -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')"`;
  if (work.kind === "container" && work.exposedPort) {
    // A server (a service replica): the port is this job's, in PORT and FORJA_PORT, which the command must
    // listen on; connection.json tells Forja where it is, and Forja's readiness probe says when it answers.
    return [
      ...head,
      freePort,
      'export FORJA_PORT="$PORT"',
      'printf \'{"port": %s}\\n\' "$PORT" > "$D/connection.json.tmp" && mv "$D/connection.json.tmp" "$D/connection.json"',
      commandLine(work, cfg),
      "",
    ].join("\n");
  }
  if (work.kind === "container") return [...head, commandLine(work, cfg), ""].join("\n");
  const check = [
    "import os, urllib.request",
    "r = urllib.request.Request('http://127.0.0.1:%s/api/status' % os.environ['PORT'],",
    "  headers={'Authorization': 'token ' + os.environ['JUPYTER_TOKEN']})",
    "urllib.request.urlopen(r, timeout=1)",
  ].join("\n");
  return [
    ...head,
    `export JUPYTER_TOKEN="$(cat "$D/token")"`,
    freePort,
    'mkdir -p "$D/work"',
    `${py} -m notebook --no-browser --allow-root --ip=0.0.0.0 --port="$PORT" --NotebookApp.port_retries=0 --notebook-dir="$D/work" &`,
    "NB=$!",
    "for _ in $(seq 1 240); do",
    `  if ${py} -c ${shq(check)} 2>/dev/null; then`,
    '    printf \'{"port": %s}\\n\' "$PORT" > "$D/connection.json.tmp" && mv "$D/connection.json.tmp" "$D/connection.json"',
    "    break",
    "  fi",
    '  kill -0 "$NB" 2>/dev/null || break',
    "  sleep 0.5",
    "done",
    'wait "$NB"',
    "",
  ].join("\n");
}
