import { spawn } from "node:child_process";
import path from "node:path";

const BIN = path.resolve(import.meta.dirname, "../../bin/forja.mjs");

export type Run = { code: number | null; stdout: string; stderr: string };

/**
 * The real `forja` binary in a child process, with only the environment given (no FORJA_* leaking in from
 * the developer's shell) and its config in `configDir`. `during` runs while it does (e.g. worker passes that
 * move a launch along while `launch --wait` polls) and stops when the process exits; it sees the output so
 * far and can signal the process (Ctrl-C is SIGINT).
 */
export function forja(
  args: string[],
  opts: {
    configDir: string;
    env?: Record<string, string>;
    input?: string;
    during?: (child: {
      stdout: () => string;
      stderr: () => string;
      signal: (s: NodeJS.Signals) => void;
    }) => Promise<void>;
  },
): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "",
      HOME: opts.configDir,
      FORJA_CONFIG_DIR: opts.configDir,
      FORJA_POLL_MS: "150",
      ...opts.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.end(opts.input ?? "");
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      running = false;
      resolve(code);
    }),
  );
  const view = {
    stdout: () => stdout,
    stderr: () => stderr,
    signal: (s: NodeJS.Signals) => void child.kill(s),
  };
  const driver = (async () => {
    while (running && opts.during) {
      await opts.during(view);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return Promise.all([exited, driver]).then(([code]) => ({ code, stdout, stderr }));
}
