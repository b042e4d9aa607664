import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { everyPage, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { t } from "../messages";
import { emit, sparkline, table } from "../output";
import { RANGES } from "./observe";

const int = (flag: string, v: unknown) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`${flag}: a whole number, 0 or more`, EXIT.usage);
  return n;
};

/** A series in at most 60 bars, each the highest of its steps, scaled to the series' top. */
function bars(values: number[]): string {
  const per = Math.max(1, Math.ceil(values.length / 60));
  const bins = Array.from({ length: Math.ceil(values.length / per) }, (_, i) =>
    Math.max(...values.slice(i * per, (i + 1) * per)),
  );
  const top = Math.max(...bins, 0);
  return top === 0 ? "" : sparkline(bins, top);
}

/** Inference services (docs/adr/0012): replicas of a model server behind the gateway, sized by the autoscaler. */
export function registerServices(program: Command) {
  const services = program
    .command("services")
    .description("Inference services: list, get, create, delete (replicas autoscaled behind the gateway)");

  examples(
    services
      .command("list", { isDefault: true })
      .description("Services with ready / desired replicas and their bounds")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const items = await everyPage((cursor) =>
            api.GET("/orgs/{org}/services", { params: { path: { org }, query: { limit: 100, cursor } } }),
          );
          emit(
            opts,
            { items },
            (d) =>
              d.items.length === 0
                ? t("noServices")
                : table(d.items, [
                    { header: "NAME", value: (s) => s.name },
                    { header: "REGION", value: (s) => s.region },
                    { header: "TYPE", value: (s) => s.instanceType },
                    { header: "READY", value: (s) => `${s.ready}/${s.desired}`, right: true },
                    { header: "MIN–MAX", value: (s) => `${s.min}–${s.max}` },
                    { header: "AUTH", value: (s) => s.auth },
                    { header: "ID", value: (s) => s.id },
                  ]),
            (d) => d.items.map((s) => s.id),
          );
        }),
      ),
    ["forja services list", "forja services list --json | jq -r '.items[].name'"],
  );

  examples(
    services
      .command("get <id>")
      .description("One service's settings")
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api, org } = await session();
          const s = await ok(api.GET("/orgs/{org}/services/{id}", { params: { path: { org, id } } }));
          emit(
            opts,
            s,
            (v) =>
              [
                ["Name", v.name],
                ["Image", v.image],
                ["Offering", `${v.instanceType} in ${v.region} (${v.pricingModel})`],
                ["Replicas", `${v.minReplicas}–${v.maxReplicas}, target ${v.target} ${v.metric}`],
                ["Port", String(v.port)],
                ["Auth", v.auth],
              ]
                .map(([k, val]) => `${String(k).padEnd(9)} ${val}`)
                .join("\n"),
            (v) => [v.id],
          );
        }),
      ),
    ["forja services get 7d2e…", "forja services get 7d2e… --json"],
  );

  examples(
    services
      .command("stats <id>")
      .description("Traffic, latency, errors, replicas, cold starts and cost over a range, with its series")
      .option("--range <range>", RANGES.join(", "), "1h")
      .action(
        action(async ({ opts, session }, id: string) => {
          const range = String(opts.range) as (typeof RANGES)[number];
          if (!RANGES.includes(range))
            throw new CliError(`--range is one of ${RANGES.join(", ")}`, EXIT.usage);
          const { api, org } = await session();
          const s = await ok(
            api.GET("/orgs/{org}/services/{id}/stats", { params: { path: { org, id }, query: { range } } }),
          );
          const ms = (v: number | null) => (v == null ? "–" : `${Math.round(v)} ms`);
          const peak = (f: (p: (typeof s.series)[number]) => number) => Math.max(0, ...s.series.map(f));
          emit(
            opts,
            s,
            (v) =>
              [
                ["Range", `${v.range} (${v.series.length} steps of ${v.stepSeconds} s)`],
                [
                  "Requests",
                  `${v.requests} (${v.requestsPerSecond.toFixed(2)}/s)  ${bars(v.series.map((p) => p.rps))}`,
                ],
                ["Latency", `p50 ${ms(v.p50Ms)}, p95 ${ms(v.p95Ms)}, p99 ${ms(v.p99Ms)}`],
                ["Errors", `${v.errors5xx} × 5xx (${v.holdTimeouts} hold timeouts), ${v.errors4xx} × 4xx`],
                [
                  "Replicas",
                  `peak desired ${peak((p) => p.desired)}, ready ${peak((p) => p.ready)}  ${bars(v.series.map((p) => p.ready))}`,
                ],
                [
                  "Cold",
                  `${v.coldStarts} cold starts, median ${v.coldStartMedianS == null ? "–" : `${v.coldStartMedianS.toFixed(1)} s`}`,
                ],
                [
                  "Cost",
                  `$${v.costUsd.toFixed(4)}, per 1,000 requests ${v.costPer1000Usd == null ? "–" : `$${v.costPer1000Usd.toFixed(4)}`}`,
                ],
              ]
                .map(([k, val]) => `${String(k).padEnd(9)} ${val}`)
                .join("\n"),
            () => [id],
          );
        }),
      ),
    ["forja services stats chat --range 24h", "forja services stats chat --json | jq '.series[-1]'"],
  );

  examples(
    services
      .command("create")
      .description("Create a service; with token auth its token is printed once")
      .requiredOption("--name <name>", "lower-case letters, digits and hyphens")
      .requiredOption("--type <instanceType>", "the replicas' instance type, e.g. l4.1x")
      .requiredOption("--region <code>", "region code, e.g. eu-fi-hel1")
      .requiredOption("--image <image>", "the model server's image")
      .option("--project <slug>", "project", "default")
      .option("--port <port>", "the port the server listens on", "8000")
      .option("--min <n>", "fewest replicas (0 scales to zero)", "0")
      .option("--max <n>", "most replicas", "4")
      .option("--metric <metric>", "rps or concurrency", "concurrency")
      .option("--target <n>", "per-replica target of the metric", "4")
      .option("--spot", "spot replicas (replaced on-demand when spot cannot be had)")
      .option("--public", "no token needed to call it")
      .option("--idempotency-key <key>", "retry-safe key (default: a fresh one per call)")
      .action(
        action(async ({ opts, session }) => {
          if (opts.metric !== "rps" && opts.metric !== "concurrency") {
            throw new CliError("--metric is rps or concurrency", EXIT.usage);
          }
          const target = Number(opts.target);
          if (!(target > 0)) throw new CliError("--target: a number above 0", EXIT.usage);
          const { api, org } = await session();
          const created = await ok(
            api.POST("/orgs/{org}/services", {
              params: {
                path: { org },
                header: { "Idempotency-Key": String(opts.idempotencyKey ?? randomUUID()) },
              },
              body: {
                name: String(opts.name),
                project: String(opts.project),
                image: String(opts.image),
                instanceType: String(opts.type),
                region: String(opts.region),
                port: int("--port", opts.port),
                minReplicas: int("--min", opts.min),
                maxReplicas: int("--max", opts.max),
                metric: opts.metric,
                target,
                pricingModel: opts.spot ? "spot" : "on_demand",
                auth: opts.public ? "public" : "token",
              } as never,
            }),
          );
          emit(
            opts,
            created,
            (c) =>
              [
                t("serviceCreated", { name: c.name, id: c.id }),
                c.token ? t("serviceToken", { token: c.token }) : t("servicePublic"),
              ].join("\n"),
            (c) => [c.id],
          );
        }),
      ),
    [
      "forja services create --name chat --type l4.1x --region eu-fi-hel1 --image pytorch-2.5-cuda12.4 --max 2",
      "forja services create --name demo --type l4.1x --region eu-fi-hel1 --image pytorch-2.5-cuda12.4 --public --json",
    ],
  );

  examples(
    services
      .command("delete <id>")
      .alias("rm")
      .description("Delete a service: the gateway stops routing to it, its replicas are terminated")
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api, org } = await session();
          await ok(api.DELETE("/orgs/{org}/services/{id}", { params: { path: { org, id } } }));
          emit(
            opts,
            { id, deleted: true },
            () => t("serviceDeleted", { id }),
            (d) => [d.id],
          );
        }),
      ),
    ["forja services delete 7d2e…"],
  );
}
