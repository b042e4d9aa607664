import { execFile } from "node:child_process";
import path from "node:path";
import type { SlurmConfig } from "./config";

export type SlurmCli = (
  bin: string,
  args: string[],
  opts?: { input?: string; env?: Record<string, string> },
) => Promise<string>;

/**
 * The Slurm client commands (sbatch, squeue, sinfo, scontrol, scancel, srun) run as child processes with the
 * cluster's SLURM_CONF; a non-zero exit becomes an Error carrying Slurm's own message (stderr's first line).
 */
export function slurmCli(config: Pick<SlurmConfig, "conf" | "binDir">): SlurmCli {
  return (bin, args, opts = {}) =>
    new Promise((resolve, reject) => {
      const env = { ...process.env, ...(config.conf ? { SLURM_CONF: config.conf } : {}), ...opts.env };
      const file = config.binDir ? path.join(config.binDir, bin) : bin;
      const child = execFile(
        file,
        args,
        { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err) {
            const msg = (stderr || stdout || err.message).trim().split("\n")[0] ?? err.message;
            reject(new Error(msg.replace(/^(sbatch|scontrol|scancel|squeue|sinfo|srun): (error: )?/, "")));
          } else resolve(stdout);
        },
      );
      if (opts.input !== undefined) child.stdin?.end(opts.input);
    });
}
