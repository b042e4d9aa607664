import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { type Api, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, note, type OutputMode } from "../output";
import { type Instance, type LaunchSpec, readSpecFile } from "../spec";

/**
 * States an apply file can still own; anything else (terminating included) is history, not "the" instance.
 * Typed by the document's state enum, so a renamed state fails to compile here.
 */
const LIVE = new Set<Instance["state"]>([
  "requested",
  "queued",
  "provisioning",
  "running",
  "stopping",
  "stopped",
  "preempting",
  "preempted",
]);

type Change = { field: string; from: unknown; to: unknown };
export type PlanItem = {
  name: string;
  project: string;
  action: "create" | "unchanged" | "replace";
  id: string | null;
  changes: Change[];
};

/** The spec's value of each compared field with the API's defaults filled in, beside the instance's value. */
function compared(spec: LaunchSpec, i: Instance): Array<[string, unknown, unknown]> {
  const s = i.spec;
  return [
    ["kind", spec.kind, i.kind],
    ["region", spec.region, i.regionCode],
    ["instanceType", spec.instanceType, i.instanceTypeId],
    ["pricingModel", spec.pricingModel ?? "on_demand", i.pricingModel],
    ["image", spec.image, i.imageId],
    ["diskGib", spec.diskGib ?? 100, i.diskGib],
    ["exposedPort", spec.exposedPort ?? null, i.exposedPort],
    ["command", spec.command ?? null, s.command],
    ["args", spec.args ?? null, s.args],
    ["env", spec.env ?? null, s.env],
    // Left out of the file, these come from the organization's auto-shutdown policy: only a value is compared.
    ["autoShutdown", spec.autoShutdown, s.autoShutdown],
    ["maxRuntimeMinutes", spec.maxRuntimeMinutes, s.maxRuntimeMinutes],
    ["priority", spec.priority ?? 0, s.priority],
    ["autoRecover", spec.autoRecover ?? false, s.autoRecover],
  ];
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` compare equal. */
function canonical(v: unknown): string {
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

export function diffSpec(spec: LaunchSpec, inst: Instance): Change[] {
  return compared(spec, inst)
    .filter(([, want, have]) => want !== undefined && canonical(want) !== canonical(have))
    .map(([field, to, from]) => ({ field, from, to }));
}

/** The organization's live instances, every page (cursor pagination: follow `next` until null). */
export async function liveInstances(api: Api, org: string): Promise<Instance[]> {
  const out: Instance[] = [];
  let cursor: string | undefined;
  do {
    const list = await ok(
      api.GET("/orgs/{org}/instances", { params: { path: { org }, query: { limit: 100, cursor } } }),
    );
    for (const i of list.items) if (LIVE.has(i.state)) out.push(i as Instance);
    cursor = list.next ?? undefined;
  } while (cursor);
  return out;
}

async function find(api: Api, org: string, live: Instance[], spec: LaunchSpec): Promise<Instance | null> {
  const project = spec.project ?? "default";
  const row = live.find((i) => i.name === spec.name && (i.projectSlug === project || project.length === 36));
  return row ? getDetail(api, org, row.id) : null;
}

const getDetail = (api: Api, org: string, id: string) =>
  ok(api.GET("/orgs/{org}/instances/{id}", { params: { path: { org, id } } }));

export async function plan(api: Api, org: string, specs: LaunchSpec[]): Promise<PlanItem[]> {
  const live = await liveInstances(api, org);
  const out: PlanItem[] = [];
  for (const spec of specs) {
    const inst = await find(api, org, live, spec);
    const base = { name: spec.name, project: spec.project ?? "default" };
    if (!inst) out.push({ ...base, action: "create", id: null, changes: [] });
    else {
      const changes = diffSpec(spec, inst);
      // No instance field can change in place (the API has no update for them): a change is a replace.
      out.push({ ...base, action: changes.length ? "replace" : "unchanged", id: inst.id, changes });
    }
  }
  return out;
}

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

export function describePlan(items: PlanItem[]): string {
  return items
    .map((p) => {
      if (p.action === "unchanged") return `= ${p.name}: unchanged`;
      if (p.action === "create") return `+ ${p.name}: will be created`;
      const lines = p.changes.map((c) => `    ${c.field}:\n      - ${show(c.from)}\n      + ${show(c.to)}`);
      return `~ ${p.name}: will be replaced (terminate ${p.id}, launch anew)\n${lines.join("\n")}`;
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

const launch = (api: Api, org: string, spec: LaunchSpec) =>
  ok(
    api.POST("/orgs/{org}/instances", {
      params: { path: { org }, header: { "Idempotency-Key": randomUUID() } },
      body: spec,
    }),
  );
const terminate = (api: Api, org: string, id: string) =>
  ok(api.POST("/orgs/{org}/instances/{id}/terminate", { params: { path: { org, id } } }));

export function registerApply(program: Command) {
  examples(
    program
      .command("apply")
      .description("Make the instances in a YAML file exist as written: create, leave alone, or replace")
      .requiredOption("-f, --file <spec.yaml>", "one or more launch specs, `---` separated (- for stdin)")
      .option("--dry-run", "only show the plan")
      .option("-y, --yes", "do not ask before replacing")
      .action(
        action(async ({ opts, session }) => {
          const specs = readSpecFile(String(opts.file));
          const { api, org } = await session();
          const items = await plan(api, org, specs);
          const changing = items.filter((p) => p.action !== "unchanged");
          if (!opts.json) process.stdout.write(`${describePlan(items)}\n`);
          const applied = !opts.dryRun && changing.length > 0;
          if (applied && items.some((p) => p.action === "replace")) {
            if (!(await confirm(opts, "Replacing terminates the running instance."))) {
              throw new CliError("Nothing changed", EXIT.error);
            }
          }
          if (applied) {
            for (const [k, p] of items.entries()) {
              const spec = specs[k] as LaunchSpec;
              if (p.action === "replace" && p.id) await terminate(api, org, p.id);
              if (p.action !== "unchanged") p.id = (await launch(api, org, spec)).id;
            }
          }
          const summary =
            changing.length === 0
              ? "Nothing to do: every instance is as the file says."
              : opts.dryRun
                ? `Dry run: ${changing.length} to change, nothing done.`
                : `Applied: ${items.filter((p) => p.action === "create").length} created, ${items.filter((p) => p.action === "replace").length} replaced, ${items.length - changing.length} unchanged.`;
          emit(
            opts,
            { dryRun: Boolean(opts.dryRun), applied, items },
            () => summary,
            (d) => d.items.flatMap((p) => (p.id ? [p.id] : [])),
          );
        }),
      ),
    [
      "forja apply -f fleet.yaml --dry-run",
      "forja apply -f fleet.yaml --yes",
      "cat fleet.yaml | forja apply -f - --json",
    ],
  );

  examples(
    program
      .command("delete")
      .description("Terminate the instances a YAML file names (the ones still alive)")
      .requiredOption("-f, --file <spec.yaml>", "the file given to `forja apply`")
      .option("-y, --yes", "do not ask")
      .action(
        action(async ({ opts, session }) => {
          const specs = readSpecFile(String(opts.file));
          const { api, org } = await session();
          const live = await liveInstances(api, org);
          const found = await Promise.all(specs.map((s) => find(api, org, live, s)));
          const targets = found.filter((i): i is Instance => i !== null);
          if (
            targets.length &&
            !(await confirm(opts, `Terminate ${targets.map((t) => t.name).join(", ")}?`))
          ) {
            throw new CliError("Nothing changed", EXIT.error);
          }
          for (const t of targets) await terminate(api, org, t.id);
          const items = specs.map((s, k) => ({
            name: s.name,
            id: found[k]?.id ?? null,
            action: found[k] ? "terminated" : "absent",
          }));
          note(opts, items.map((i) => `${i.name}: ${i.action}`).join("\n"));
          emit(
            opts,
            { items },
            () => `Deleted ${targets.length} of ${specs.length}.`,
            (d) => d.items.flatMap((i) => (i.id ? [i.id] : [])),
          );
        }),
      ),
    ["forja delete -f fleet.yaml --yes"],
  );
}
