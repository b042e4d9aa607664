import type { Command } from "commander";
import { everyPage, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, table, usd } from "../output";
import { budgetsOf } from "./apply-budgets";

const BY = { project: "project", gpu: "gpu_model", region: "region", pricing: "pricing_model" } as const;

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const day = (d: Date) => d.toISOString().slice(0, 10);

export function registerUsage(program: Command) {
  examples(
    program
      .command("usage")
      .description("Spend of a period (default: this month so far), by project, GPU model or region")
      .option("--by <dimension>", "project, gpu, region or pricing", "project")
      .option("--from <date>", "first day (YYYY-MM-DD; default: the 1st of this month)")
      .option("--to <date>", "day after the last (exclusive; default: tomorrow)")
      .option("--project <slug>", "only this project")
      .option("--csv", "the usage ledger as CSV, one line per metered period")
      .action(
        action(async ({ opts, session }) => {
          const key = BY[String(opts.by) as keyof typeof BY];
          if (!key) throw new CliError("--by is project, gpu, region or pricing", EXIT.usage);
          const now = new Date();
          const query = {
            from: String(opts.from ?? day(monthStart(now))),
            to: String(opts.to ?? day(new Date(now.getTime() + 86_400_000))),
            project: opts.project as string | undefined,
          };
          const { api, org } = await session();
          if (opts.csv) {
            const csv = await ok(
              api.GET("/orgs/{org}/usage/export", { params: { path: { org }, query }, parseAs: "text" }),
            );
            process.stdout.write(csv as string);
            return;
          }
          // Grouped in SQL by the API; the month's forecast only when the period is this month so far.
          const thisMonth = !opts.from && !opts.to;
          const [daily, forecast] = await Promise.all([
            ok(
              api.GET("/orgs/{org}/usage/daily", {
                params: { path: { org }, query: { ...query, groupBy: key } },
              }),
            ),
            thisMonth
              ? ok(
                  api.GET("/orgs/{org}/usage/summary", {
                    params: { path: { org }, query: { project: query.project } },
                  }),
                )
              : null,
          ]);
          const rows = [...daily.groups].sort((x, y) => y.amountUsd - x.amountUsd);
          emit(
            opts,
            { from: query.from, to: query.to, by: opts.by, daily, forecast },
            (u) => {
              const lines = [
                rows.length === 0
                  ? `No usage from ${u.from} to ${u.to}.`
                  : `${table(rows, [
                      { header: String(u.by).toUpperCase(), value: (r) => r.label },
                      { header: "COST", value: (r) => usd(r.amountUsd), right: true },
                    ])}\n\nTotal ${usd(daily.totalUsd)} from ${u.from} to ${u.to} (exclusive)`,
              ];
              if (forecast)
                lines.push(`Month-end forecast ${usd(forecast.forecastUsd)} (${forecast.method})`);
              return lines.join("\n");
            },
            () => rows.map((r) => r.key),
          );
        }),
      ),
    [
      "forja usage",
      "forja usage --by gpu --from 2030-01-01 --to 2030-02-01",
      "forja usage --csv > january.csv",
    ],
  );

  examples(
    program
      .command("budgets")
      .description("Budgets with this month's spend, forecast and status")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const items = await budgetsOf(api, org);
          emit(
            opts,
            { items },
            (b) =>
              b.items.length === 0
                ? "No budgets. Create one in the console (Budgets) or with POST /api/v1/orgs/{org}/budgets."
                : table(b.items, [
                    { header: "NAME", value: (x) => x.name },
                    { header: "SCOPE", value: (x) => x.projectName ?? "organization" },
                    { header: "BUDGET", value: (x) => usd(x.amountUsd), right: true },
                    {
                      header: "SPENT",
                      value: (x) => `${usd(x.actualUsd)} (${Math.round(x.usedPct)}%)`,
                      right: true,
                    },
                    { header: "FORECAST", value: (x) => usd(x.forecastUsd), right: true },
                    {
                      header: "STATUS",
                      value: (x) => (x.blocksLaunches ? `${x.status}, blocks launches` : x.status),
                    },
                    { header: "AT 100%", value: (x) => x.actionAt100 },
                  ]),
            (b) => b.items.map((x) => x.id),
          );
        }),
      ),
    ["forja budgets", "forja budgets --json | jq '.items[] | select(.status != \"ok\")'"],
  );

  examples(
    program
      .command("quotas")
      .description(
        "GPU quotas per model and region: nominal, borrowing limit, in use; and your quota requests",
      )
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          // Every page: a catalog of 8 models in 9 regions already lists 72 quotas, past one page's 50.
          const [quotas, requests] = await Promise.all([
            everyPage((cursor) =>
              api.GET("/orgs/{org}/quotas", {
                params: { path: { org }, query: { limit: 100, cursor } as never },
              }),
            ),
            everyPage((cursor) =>
              api.GET("/orgs/{org}/quota-requests", {
                params: { path: { org }, query: { limit: 100, cursor } as never },
              }),
            ),
          ]);
          emit(
            opts,
            { quotas, requests },
            (q) =>
              `${table(q.quotas, [
                { header: "GPU", value: (r) => r.gpuModelId },
                { header: "REGION", value: (r) => r.regionCode },
                { header: "NOMINAL", value: (r) => r.nominalGpus, right: true },
                { header: "BORROW", value: (r) => r.borrowingLimitGpus, right: true },
                { header: "IN USE", value: (r) => r.inUseGpus, right: true },
                { header: "SOURCE", value: (r) => (r.fromDefault ? "default" : "organization") },
              ])}${
                q.requests.length
                  ? `\n\nRequests:\n${table(q.requests, [
                      { header: "ID", value: (r) => r.id },
                      { header: "GPU", value: (r) => r.gpuModelId },
                      { header: "REGION", value: (r) => r.regionCode },
                      { header: "GPUS", value: (r) => r.requestedGpus, right: true },
                      { header: "STATUS", value: (r) => r.status },
                      { header: "DECISION", value: (r) => r.decisionMessage },
                    ])}`
                  : ""
              }`,
            (q) => q.requests.map((r) => r.id),
          );
        }),
      ),
    ["forja quotas", "forja quotas --json | jq '.quotas[] | select(.gpuModelId==\"h100\")'"],
  );

  const quota = program.command("quota").description("Quota requests");
  examples(
    quota
      .command("request")
      .description("Ask the operators for a higher nominal quota (the total you want)")
      .requiredOption("--gpu <model>", "GPU model id, e.g. h100")
      .requiredOption("--region <code>", "region code")
      .requiredOption("--gpus <n>", "nominal GPUs wanted in total")
      .requiredOption("--reason <text>", "what it is for")
      .option("--until <date>", "a temporary raise until this date")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const created = await ok(
            api.POST("/orgs/{org}/quota-requests", {
              params: { path: { org } },
              body: {
                gpuModelId: String(opts.gpu),
                regionCode: String(opts.region),
                requestedGpus: Number(opts.gpus),
                reason: String(opts.reason),
                ...(opts.until ? { until: String(opts.until) } : {}),
              },
            }),
          );
          const r = created as unknown as { id: string; status: string };
          emit(
            opts,
            created,
            () => `Requested (${r.status}): ${r.id}`,
            () => [r.id],
          );
        }),
      ),
    ['forja quota request --gpu h100 --region eu-fi-hel1 --gpus 32 --reason "Q1 training run"'],
  );

  examples(
    quota
      .command("policy")
      .description(
        "Show or set whether higher-priority work may preempt your organization's lower-priority work (admins)",
      )
      .option("--preempt <on|off>", "turn preemption of lower-priority work on or off")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const path = { params: { path: { org } } };
          if (opts.preempt !== undefined && opts.preempt !== "on" && opts.preempt !== "off") {
            throw new CliError("--preempt is on or off", EXIT.usage);
          }
          const read = api.GET("/orgs/{org}/quota-policy", path);
          let policy = await ok(read);
          if (opts.preempt !== undefined) {
            // If-Match with what was just read: a change made meanwhile is refused, not overwritten.
            const etag = (await read).response.headers.get("etag") ?? "*";
            policy = await ok(
              api.PUT("/orgs/{org}/quota-policy", {
                params: { path: { org }, header: { "If-Match": etag } },
                body: { preemptLowerPriority: opts.preempt === "on" },
              }),
            );
          }
          emit(
            opts,
            policy,
            (p) =>
              p.preemptLowerPriority
                ? "Higher-priority work may preempt lower-priority work of this organization (notice, then it stops)."
                : "Priority only orders the queue: no work of this organization is preempted for higher-priority work.",
            () => [],
          );
        }),
      ),
    ["forja quota policy", "forja quota policy --preempt on"],
  );
  examples(quota, ['forja quota request --gpu h100 --region eu-fi-hel1 --gpus 32 --reason "Q1 run"']);
}
