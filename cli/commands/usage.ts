import type { Command } from "commander";
import { ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, table, usd } from "../output";

const BY = { project: "project", gpu: "gpu_model", region: "region" } as const;

/** Minimal RFC 4180 reader for the ledger export (quoted fields may hold commas and doubled quotes). */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ""])));
}

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const day = (d: Date) => d.toISOString().slice(0, 10);

export function registerUsage(program: Command) {
  examples(
    program
      .command("usage")
      .description("Spend of a period (default: this month so far), by project, GPU model or region")
      .option("--by <dimension>", "project, gpu or region", "project")
      .option("--from <date>", "first day (YYYY-MM-DD; default: the 1st of this month)")
      .option("--to <date>", "day after the last (exclusive; default: tomorrow)")
      .option("--project <slug>", "only this project")
      .option("--csv", "the usage ledger as CSV, one line per metered period")
      .action(
        action(async ({ opts, session }) => {
          const key = BY[String(opts.by) as keyof typeof BY];
          if (!key) throw new CliError("--by is project, gpu or region", EXIT.usage);
          const now = new Date();
          const query = {
            from: String(opts.from ?? day(monthStart(now))),
            to: String(opts.to ?? day(new Date(now.getTime() + 86_400_000))),
            project: opts.project as string | undefined,
          };
          const { api, org } = await session();
          const csv = await ok(
            api.GET("/orgs/{org}/usage/export", { params: { path: { org }, query }, parseAs: "text" }),
          );
          if (opts.csv) {
            process.stdout.write(csv as string);
            return;
          }
          // Totals per dimension from the ledger rows (corrections are rows with negative amounts).
          const totals = new Map<string, { key: string; usd: number; hours: number }>();
          for (const r of parseCsv(csv as string)) {
            const k = r[key] || "—";
            const t = totals.get(k) ?? { key: k, usd: 0, hours: 0 };
            t.usd += Number(r.amount) || 0;
            t.hours += (Number(r.seconds) || 0) / 3600;
            totals.set(k, t);
          }
          const rows = [...totals.values()]
            .map((t) => ({
              ...t,
              usd: Math.round(t.usd * 100) / 100,
              hours: Math.round(t.hours * 100) / 100,
            }))
            .sort((a, b) => b.usd - a.usd);
          const total = Math.round(rows.reduce((s, r) => s + r.usd, 0) * 100) / 100;
          emit(
            opts,
            { from: query.from, to: query.to, by: opts.by, currency: "USD", total, rows },
            (u) =>
              u.rows.length === 0
                ? `No usage from ${u.from} to ${u.to}.`
                : `${table(u.rows, [
                    { header: String(u.by).toUpperCase(), value: (r) => r.key },
                    { header: "HOURS", value: (r) => r.hours.toFixed(2), right: true },
                    { header: "COST", value: (r) => usd(r.usd), right: true },
                  ])}\n\nTotal ${usd(u.total)} from ${u.from} to ${u.to} (exclusive)`,
            (u) => u.rows.map((r) => r.key),
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
          const items = [];
          let cursor: string | undefined;
          do {
            const page = await ok(
              api.GET("/orgs/{org}/budgets", { params: { path: { org }, query: { limit: 100, cursor } } }),
            );
            items.push(...page.items);
            cursor = page.next ?? undefined;
          } while (cursor);
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
          const [quotas, requests] = await Promise.all([
            ok(api.GET("/orgs/{org}/quotas", { params: { path: { org } } })),
            ok(api.GET("/orgs/{org}/quota-requests", { params: { path: { org } } })),
          ]);
          emit(
            opts,
            { quotas: quotas.items, requests: requests.items },
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
  examples(quota, ['forja quota request --gpu h100 --region eu-fi-hel1 --gpus 32 --reason "Q1 run"']);
}
