import { createInterface } from "node:readline/promises";
import { CliError, EXIT } from "../errors";
import type { OutputMode } from "../output";

/** One document of an apply file against what exists: what `apply` would do, and why. */
export type Change = { field: string; from: unknown; to: unknown };
export type PlanItem = {
  kind: "instance" | "budget" | "policy" | "service";
  name: string;
  project: string | null;
  action: "create" | "unchanged" | "update" | "replace";
  id: string | null;
  changes: Change[];
};

/** JSON with sorted keys and null members dropped, so `{a,b}` and `{b,a,c:null}` compare equal. */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(
    ([, x]) => x !== undefined && x !== null,
  );
  return `{${entries
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
    .join(",")}}`;
}

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

export function describePlan(items: PlanItem[]): string {
  return items
    .map((p) => {
      const name = p.kind === "instance" ? p.name : `${p.kind}/${p.name}`;
      if (p.action === "unchanged") return `= ${name}: unchanged`;
      if (p.action === "create") return `+ ${name}: will be created`;
      const how =
        p.action === "update"
          ? "will be updated in place"
          : `will be replaced (terminate ${p.id}, launch anew)`;
      const lines = p.changes.map((c) => `    ${c.field}:\n      - ${show(c.from)}\n      + ${show(c.to)}`);
      return `~ ${name}: ${how}\n${lines.join("\n")}`;
    })
    .join("\n");
}

/** Destructive steps need a yes: --yes, or a person answering y at a terminal; a script without --yes stops. */
export async function confirm(mode: OutputMode & { yes?: unknown }, question: string): Promise<boolean> {
  if (mode.yes) return true;
  if (!process.stdin.isTTY) {
    throw new CliError(`${question} Run again with --yes to proceed (or --dry-run to only look)`, EXIT.usage);
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
