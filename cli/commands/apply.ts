import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { type Api, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, note } from "../output";
import {
  type BudgetDoc,
  type Instance,
  isBudget,
  isLaunch,
  isPolicy,
  isService,
  type LaunchSpec,
  type PolicyDoc,
  readSpecFile,
  type ServiceDoc,
} from "../spec";
import { applyBudget, deleteBudget, findBudgets, planBudgets } from "./apply-budgets";
import { applyPolicy, deletePolicy, planPolicies } from "./apply-policies";
import { applyService, deleteService, planServices } from "./apply-services";
import { type Change, canonical, confirm, describePlan, type PlanItem } from "./plan";

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

async function planInstances(api: Api, org: string, specs: LaunchSpec[]): Promise<PlanItem[]> {
  if (specs.length === 0) return [];
  const live = await liveInstances(api, org);
  const out: PlanItem[] = [];
  for (const spec of specs) {
    const inst = await find(api, org, live, spec);
    const base = { kind: "instance" as const, name: spec.name, project: spec.project ?? "default" };
    if (!inst) out.push({ ...base, action: "create", id: null, changes: [] });
    else {
      const changes = diffSpec(spec, inst);
      // No instance field can change in place (the API has no update for them): a change is a replace.
      out.push({ ...base, action: changes.length ? "replace" : "unchanged", id: inst.id, changes });
    }
  }
  return out;
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
      .description(
        "Make the instances, budgets, auto-shutdown policies and services in a YAML file exist as written",
      )
      .requiredOption(
        "-f, --file <spec.yaml>",
        "launch specs and `kind: budget`, `auto-shutdown-policy` or `service` documents, `---` separated (- for stdin)",
      )
      .option("--dry-run", "only show the plan")
      .option("-y, --yes", "do not ask before replacing")
      .action(
        action(async ({ opts, session }) => {
          const docs = readSpecFile(String(opts.file));
          const specs = docs.filter(isLaunch);
          const budgets = docs.filter(isBudget);
          const policies = docs.filter(isPolicy);
          const services = docs.filter(isService);
          const { api, org } = await session();
          const [forInstances, forBudgets, forPolicies, forServices] = await Promise.all([
            planInstances(api, org, specs),
            planBudgets(api, org, budgets),
            planPolicies(api, org, policies),
            planServices(api, org, services),
          ]);
          const items = [...forInstances, ...forBudgets, ...forPolicies, ...forServices];
          const changing = items.filter((p) => p.action !== "unchanged");
          if (!opts.json) process.stdout.write(`${describePlan(items)}\n`);
          const applied = !opts.dryRun && changing.length > 0;
          if (applied && items.some((p) => p.action === "replace")) {
            if (!(await confirm(opts, "Replacing terminates the running instance (or service)."))) {
              throw new CliError("Nothing changed", EXIT.error);
            }
          }
          if (applied) {
            for (const [k, p] of forInstances.entries()) {
              if (p.action === "replace" && p.id) await terminate(api, org, p.id);
              if (p.action !== "unchanged") p.id = (await launch(api, org, specs[k] as LaunchSpec)).id;
            }
            for (const [k, p] of forBudgets.entries()) {
              if (p.action !== "unchanged") p.id = await applyBudget(api, org, p, budgets[k] as BudgetDoc);
            }
            for (const [k, p] of forPolicies.entries()) {
              if (p.action !== "unchanged")
                p.id = await applyPolicy(api, org, policies[k] as PolicyDoc, p.id);
            }
            for (const [k, p] of forServices.entries()) {
              p.id = await applyService(api, org, p, services[k] as ServiceDoc);
            }
          }
          const count = (a: PlanItem["action"]) => items.filter((p) => p.action === a).length;
          const summary =
            changing.length === 0
              ? "Nothing to do: everything is as the file says."
              : opts.dryRun
                ? `Dry run: ${changing.length} to change, nothing done.`
                : `Applied: ${count("create")} created, ${count("update")} updated, ${count("replace")} replaced, ${count("unchanged")} unchanged.`;
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
      .description(
        "Terminate the instances and delete the budgets and auto-shutdown policies a YAML file names",
      )
      .requiredOption("-f, --file <spec.yaml>", "the file given to `forja apply`")
      .option("-y, --yes", "do not ask")
      .action(
        action(async ({ opts, session }) => {
          const docs = readSpecFile(String(opts.file));
          const specs = docs.filter(isLaunch);
          const budgetDocs = docs.filter(isBudget);
          const { api, org } = await session();
          const live = await liveInstances(api, org);
          const found = await Promise.all(specs.map((s) => find(api, org, live, s)));
          const foundBudgets = await findBudgets(api, org, budgetDocs);
          const policyDocs = docs.filter(isPolicy);
          const foundPolicies = await planPolicies(api, org, policyDocs);
          const foundServices = await planServices(api, org, docs.filter(isService));
          const targets = [
            ...found.flatMap((i) => (i ? [{ kind: "instance", name: i.name, id: i.id }] : [])),
            ...foundBudgets.flatMap((b) =>
              b ? [{ kind: "budget", name: `budget/${b.name}`, id: b.id }] : [],
            ),
            ...foundPolicies.flatMap((p) =>
              p.id ? [{ kind: "policy", name: `policy/${p.name}`, id: p.id }] : [],
            ),
            ...foundServices.flatMap((p) =>
              p.id ? [{ kind: "service", name: `service/${p.name}`, id: p.id }] : [],
            ),
          ];
          if (targets.length && !(await confirm(opts, `Delete ${targets.map((t) => t.name).join(", ")}?`))) {
            throw new CliError("Nothing changed", EXIT.error);
          }
          for (const t of targets) {
            if (t.kind === "instance") await terminate(api, org, t.id);
            else if (t.kind === "policy") await deletePolicy(api, org, t.id);
            else if (t.kind === "service") await deleteService(api, org, t.id);
            else await deleteBudget(api, org, t.id);
          }
          const items = [
            ...specs.map((s, k) => ({
              name: s.name,
              id: found[k]?.id ?? null,
              action: found[k] ? "terminated" : "absent",
            })),
            ...budgetDocs.map((d, k) => ({
              name: `budget/${d.name}`,
              id: foundBudgets[k]?.id ?? null,
              action: foundBudgets[k] ? "deleted" : "absent",
            })),
            ...foundPolicies.map((p) => ({
              name: `policy/${p.name}`,
              id: p.id,
              action: p.id ? "deleted" : "absent",
            })),
            ...foundServices.map((p) => ({
              name: `service/${p.name}`,
              id: p.id,
              action: p.id ? "deleted" : "absent",
            })),
          ];
          note(opts, items.map((i) => `${i.name}: ${i.action}`).join("\n"));
          emit(
            opts,
            { items },
            () => `Deleted ${targets.length} of ${docs.length}.`,
            (d) => d.items.flatMap((i) => (i.id ? [i.id] : [])),
          );
        }),
      ),
    ["forja delete -f fleet.yaml --yes"],
  );
}
