import type { Command } from "commander";
import { session } from "./client";
import type { OutputMode } from "./output";

export type GlobalOpts = OutputMode & { org?: string };

/** `--help` ends with these, so every command shows how it is typed. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
}

/** The action wrapper: global flags merged in, the session resolved lazily, errors left to main(). */
export function action<A extends unknown[]>(
  fn: (
    ctx: { opts: GlobalOpts & Record<string, unknown>; session: typeof session },
    ...args: A
  ) => Promise<void>,
) {
  return async (...raw: unknown[]) => {
    const cmd = raw[raw.length - 1] as Command;
    const args = raw.slice(0, cmd.registeredArguments.length) as A;
    await fn(
      { opts: cmd.optsWithGlobals(), session: (org?: string) => session(org ?? cmd.optsWithGlobals().org) },
      ...args,
    );
  };
}

/** How often --wait, --watch and logs -f ask (FORJA_POLL_MS; tests make it short). */
export const pollMs = () => Number(process.env.FORJA_POLL_MS) || 2000;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
