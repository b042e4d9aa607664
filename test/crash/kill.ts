import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type Killed = { paused: string; signal: NodeJS.Signals | null };

export function killAt(checkpointName: string, pass: string, args: Record<string, unknown>): Promise<Killed> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "test/crash/pass.ts", pass, JSON.stringify(args)],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "test", FORJA_TEST_HOOKS: "1", FORJA_PAUSE_AT: checkpointName },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    let paused: string | null = null;
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /FORJA_PAUSED (\S+)/.exec(out);
      if (m && !paused) {
        paused = m[1] ?? "";
        child.kill("SIGKILL");
      }
    });
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      if (paused) resolve({ paused, signal });
      else reject(new Error(`the pass ended without reaching ${checkpointName}:\n${out}\n${err}`));
    });
  });
}
