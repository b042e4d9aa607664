import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { type Api, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples, pollMs, sleep } from "../kit";
import { duration, emit, note, type OutputMode, table, usd } from "../output";
import { envFrom, type Instance, isLaunch, type LaunchSpec, readSpecFile } from "../spec";

const collect = (v: string, prev: string[] = []) => [...prev, v];
const FINAL = new Set(["terminated", "rejected", "cancelled", "failed"]);

export const getInstance = (api: Api, org: string, id: string) =>
  ok(api.GET("/orgs/{org}/instances/{id}", { params: { path: { org, id } } }));

/** The reason in words: the state's own, else the queue's code with its parameters. */
export function reasonOf(i: Pick<Instance, "stateReason" | "queueReason">): string {
  if (i.queueReason) {
    const params = Object.entries(i.queueReason.params).map(([k, v]) => `${k}=${v}`);
    return `${i.queueReason.code}${params.length ? ` (${params.join(", ")})` : ""}`;
  }
  return i.stateReason ?? "";
}

function progressLine(i: Instance): string {
  if (i.state === "queued" && i.queue) {
    return `queued · position ${i.queue.position} · ETA ${duration(i.queue.etaSeconds)} (${i.queue.method})${i.queueReason ? ` · ${reasonOf(i)}` : ""}`;
  }
  return i.stateReason ? `${i.state} · ${i.stateReason}` : i.state;
}

/** Poll until running (0) or a final state (error); each change of state or queue position is one line. */
export async function waitRunning(
  api: Api,
  org: string,
  first: Instance,
  mode: OutputMode,
  timeoutS: number,
) {
  let last = "";
  let inst = first;
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const line = progressLine(inst);
    if (line !== last) note(mode, `${inst.name}: ${line}`);
    last = line;
    if (inst.state === "running") return inst;
    if (FINAL.has(inst.state)) {
      throw new CliError(`${inst.name} is ${inst.state}: ${reasonOf(inst) || "no reason given"}`, EXIT.error);
    }
    if (Date.now() > deadline)
      throw new CliError(`${inst.name} is still ${inst.state} after ${duration(timeoutS)}`);
    await sleep(pollMs());
    inst = await getInstance(api, org, inst.id);
  }
}

export function describeInstance(i: Instance): string {
  const rows: Array<[string, string]> = [
    ["ID", i.id],
    ["Name", i.name],
    ["State", i.state],
    ["Reason", reasonOf(i) || "—"],
    ["Type", `${i.instanceTypeId} (${i.gpuCount}× ${i.gpuModelName}) ${i.pricingModel}`],
    ["Region", i.regionCode],
    ["Project", i.projectSlug],
    ["Image", i.imageId],
    ["Cost", usd(i.costUsd)],
  ];
  if (i.queue) {
    rows.push(
      ["Position", String(i.queue.position)],
      ["ETA", `${duration(i.queue.etaSeconds)} (${i.queue.method})`],
    );
  }
  if (i.connection) for (const [k, v] of Object.entries(i.connection)) rows.push([k, v]);
  let out = rows.map(([k, v]) => `${k.padEnd(9)} ${v}`).join("\n");
  if (i.queue?.alternatives.length) {
    out += `\n\nAlternatives that could start sooner:\n${table(i.queue.alternatives, [
      { header: "KIND", value: (a) => a.kind },
      { header: "TYPE", value: (a) => a.instanceTypeId },
      { header: "REGION", value: (a) => a.regionCode },
      { header: "PRICING", value: (a) => a.pricingModel },
      { header: "USD/H", value: (a) => usd(a.usdPerHour), right: true },
    ])}`;
  }
  const events = i.events.slice(-5);
  if (events.length) {
    out += `\n\nRecent events:\n${table(events, [
      { header: "AT", value: (e) => e.at },
      { header: "STATE", value: (e) => e.to },
      { header: "REASON", value: (e) => e.reason },
    ])}`;
  }
  return out;
}

function specFromFlags(opts: Record<string, unknown>): LaunchSpec {
  const need = (k: string, flag: string) => {
    if (typeof opts[k] !== "string") throw new CliError(`launch needs ${flag} (or -f spec.yaml)`, EXIT.usage);
    return opts[k] as string;
  };
  const spec: LaunchSpec = {
    kind: (opts.kind as "notebook" | "container") ?? (opts.command ? "container" : "notebook"),
    name: need("name", "--name"),
    project: (opts.project as string) ?? "default",
    region: need("region", "--region"),
    instanceType: need("type", "--type"),
    image: need("image", "--image"),
    pricingModel: opts.spot ? "spot" : "on_demand",
  };
  if (opts.command) spec.command = opts.command as string;
  if ((opts.arg as string[] | undefined)?.length) spec.args = opts.arg as string[];
  if ((opts.env as string[] | undefined)?.length) spec.env = envFrom(opts.env as string[]);
  if (opts.disk) spec.diskGib = Number(opts.disk);
  if (opts.maxRuntime) spec.maxRuntimeMinutes = Number(opts.maxRuntime);
  if (opts.priority !== undefined) spec.priority = Number(opts.priority);
  return spec;
}

export function instanceVerb(program: Command, verb: "stop" | "start" | "rm", what: string) {
  const path = {
    stop: "/orgs/{org}/instances/{id}/stop",
    start: "/orgs/{org}/instances/{id}/start",
    rm: "/orgs/{org}/instances/{id}/terminate",
  } as const;
  examples(
    program
      .command(`${verb} <id>`)
      .description(what)
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api, org } = await session();
          const body = await ok(api.POST(path[verb], { params: { path: { org, id } } }));
          const inst = body as unknown as { id?: string; state?: string };
          emit(
            opts,
            body,
            () => `${id}: ${inst.state ?? "done"}`,
            () => [id],
          );
        }),
      ),
    [`forja ${verb} 3f6c…`, `forja ls --state running -q | xargs -n1 forja ${verb}`],
  );
}

export function registerInstances(program: Command) {
  examples(
    program
      .command("launch")
      .description("Launch an instance from flags or a spec file; --wait follows it until it runs")
      .option("-f, --file <spec.yaml>", "a launch spec (YAML or JSON; the first document)")
      .option("--name <name>", "instance name (lowercase letters, digits, hyphens)")
      .option("--type <instanceType>", "instance type, e.g. h100.8x (see `forja offers`)")
      .option("--region <code>", "region code, e.g. eu-fi-hel1")
      .option("--image <id>", "image id, e.g. pytorch-2.5-cuda12.4")
      .option("--project <slug>", "project slug or id", "default")
      .option("--kind <kind>", "notebook or container (default: container when --command is given)")
      .option("--command <cmd>", "container command")
      .option("--arg <arg>", "container argument (repeat)", collect)
      .option("--env <KEY=value>", "environment variable (repeat)", collect)
      .option("--disk <GiB>", "disk size in GiB")
      .option("--max-runtime <minutes>", "stop after this many minutes")
      .option("--spot", "spot pricing (preemptible)")
      .option("--priority <n>", "-100 to 100 (default 0; above 0 for admins); higher starts first")
      .option("--idempotency-key <key>", "retry-safe key (default: a fresh one per call)")
      .option("--wait", "follow it until it runs, with queue position and ETA")
      .option("--timeout <seconds>", "give up waiting after this long", "1800")
      .action(
        action(async ({ opts, session }) => {
          const spec = opts.file ? readSpecFile(String(opts.file)).find(isLaunch) : specFromFlags(opts);
          if (!spec || !isLaunch(spec)) throw new CliError(`${opts.file} has no launch spec`, EXIT.usage);
          const { api, org } = await session();
          let inst = await ok(
            api.POST("/orgs/{org}/instances", {
              params: {
                path: { org },
                header: { "Idempotency-Key": String(opts.idempotencyKey ?? randomUUID()) },
              },
              body: spec,
            }),
          );
          note(opts, `Launched ${inst.name} (${inst.id}): ${inst.state}`);
          if (opts.wait) inst = await waitRunning(api, org, inst, opts, Number(opts.timeout));
          emit(opts, inst, describeInstance, (i) => [i.id]);
        }),
      ),
    [
      "forja launch --name nb --type l4.1x --region eu-fi-hel1 --image pytorch-2.5-cuda12.4 --wait",
      "forja launch -f train.yaml --wait --json",
    ],
  );

  examples(
    program
      .command("ls")
      .description("Instances, newest first")
      .option("--state <state>", "only this state (queued, running, stopped, …)")
      .option("--project <slug>", "only this project")
      .option("--region <code>", "only this region")
      .option("--watch", "redraw every few seconds until Ctrl-C (which ends it with exit 0)")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const query = {
            state: opts.state as never,
            project: opts.project as string | undefined,
            region: opts.region as string | undefined,
          };
          // Ctrl-C ends a watch cleanly: the redraw in flight finishes, then exit 0 (not a kill mid-line).
          let interrupted = false;
          let wake = () => {};
          const onInterrupt = () => {
            interrupted = true;
            wake();
          };
          if (opts.watch) process.once("SIGINT", onInterrupt);
          for (;;) {
            const list = await ok(api.GET("/orgs/{org}/instances", { params: { path: { org }, query } }));
            if (opts.watch && !opts.json && !opts.quiet) process.stdout.write("\x1b[2J\x1b[H");
            emit(
              opts,
              list,
              (l) =>
                l.items.length === 0
                  ? "No instances. Launch one with `forja launch` (see `forja launch --help`)."
                  : table(l.items, [
                      { header: "ID", value: (i) => i.id },
                      { header: "NAME", value: (i) => i.name },
                      { header: "STATE", value: (i) => i.state },
                      { header: "TYPE", value: (i) => i.instanceTypeId },
                      { header: "REGION", value: (i) => i.regionCode },
                      { header: "PROJECT", value: (i) => i.projectSlug },
                      { header: "COST", value: (i) => usd(i.costUsd), right: true },
                    ]),
              (l) => l.items.map((i) => i.id),
            );
            if (!opts.watch) return;
            if (!interrupted) {
              await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, pollMs());
                wake = () => {
                  clearTimeout(timer);
                  resolve();
                };
              });
            }
            if (interrupted) return;
          }
        }),
      ),
    ["forja ls", "forja ls --state running --watch", "forja ls --json | jq '.items[].name'"],
  );

  examples(
    program
      .command("status <id>")
      .description("One instance: state and reason; while queued, position, ETA and alternatives")
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api, org } = await session();
          emit(opts, await getInstance(api, org, id), describeInstance, (i) => [i.id]);
        }),
      ),
    ["forja status 3f6c…", "forja status 3f6c… --json | jq .queue"],
  );

  instanceVerb(program, "stop", "Stop a running instance (its disk is kept; `forja start` resumes it)");
  instanceVerb(program, "start", "Start a stopped or preempted instance again (it queues for capacity)");
  instanceVerb(program, "rm", "Terminate an instance and release its GPUs (a queued one is cancelled)");
}
