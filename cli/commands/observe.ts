import type { Command } from "commander";
import { ok } from "../client";
import { CliError, EXIT, type Problem, problemError } from "../errors";
import { action, examples } from "../kit";
import { t } from "../messages";
import { emit, parseDuration, sparkline } from "../output";

type LogLine = { at: string; stream: "stdout" | "stderr"; text: string };

/**
 * Read a Server-Sent Events stream of log lines until its `end` event; an `error` event (access ended while
 * following) is thrown as the problem it carries, a stream cut without `end` as "cannot reach the server".
 */
async function readEvents(stream: ReadableStream<Uint8Array>, onLine: (l: LogLine) => void) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      let data = "";
      for (const field of block.split("\n")) {
        if (field.startsWith("event: ")) event = field.slice(7);
        else if (field.startsWith("data: ")) data += field.slice(6);
      }
      if (event === "line") onLine(JSON.parse(data) as LogLine);
      else if (event === "end") return JSON.parse(data) as { live: boolean };
      else if (event === "error") {
        const problem = JSON.parse(data) as Problem;
        throw problemError(problem.status ?? 500, problem);
      }
    }
  }
  throw new CliError(t("unreachable", { why: t("streamEnded") }), EXIT.error);
}

const METRICS = ["utilization", "memory", "power", "temperature"] as const;
export const RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;

export function registerObserve(program: Command) {
  examples(
    program
      .command("logs <id>")
      .description("The container's log tail; -f keeps following while it runs")
      .option("-f, --follow", "keep printing new lines while the workload runs")
      .option("--limit <n>", "at most this many lines", "200")
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api, org } = await session();
          const print = (l: LogLine) => {
            if (opts.json) process.stdout.write(`${JSON.stringify(l)}\n`);
            else (l.stream === "stderr" ? process.stderr : process.stdout).write(`${l.text}\n`);
          };
          const limit = Number(opts.limit);
          if (!opts.follow) {
            const page = await ok(
              api.GET("/orgs/{org}/instances/{id}/logs", { params: { path: { org, id }, query: { limit } } }),
            );
            // JSON unless asked to follow (the text/event-stream answer is only for follow=1).
            for (const l of (page as Exclude<typeof page, string>).lines) print(l);
            return;
          }
          // Followed: one Server-Sent Events stream per connection; the server ends it with `end`, and with
          // live: true (its time was up) we reconnect after the last line seen.
          let since: string | undefined;
          for (;;) {
            const stream = await ok(
              api.GET("/orgs/{org}/instances/{id}/logs", {
                params: { path: { org, id }, query: { since, limit, follow: "1" } },
                parseAs: "stream",
              }),
            );
            const end = await readEvents(stream as ReadableStream<Uint8Array>, (l) => {
              print(l);
              since = l.at;
            });
            if (!end.live) return;
          }
        }),
      ),
    ["forja logs 3f6c…", "forja logs 3f6c… -f", "forja logs 3f6c… --json | jq -r .text"],
  );

  examples(
    program
      .command("metrics <id>")
      .description("GPU metrics as a terminal sparkline per GPU, with mean, peak and latest")
      .option("--metric <metric>", METRICS.join(", "), "utilization")
      .option("--range <range>", RANGES.join(", "), "1h")
      .option(
        "--step <duration>",
        "bin width, e.g. 5m or 1h (coarser than the range's own; default: ~600 bins)",
      )
      .action(
        action(async ({ opts, session }, id: string) => {
          const metric = String(opts.metric);
          const range = String(opts.range);
          if (!(METRICS as readonly string[]).includes(metric)) {
            throw new CliError(`--metric is one of ${METRICS.join(", ")}`, EXIT.usage);
          }
          if (!(RANGES as readonly string[]).includes(range)) {
            throw new CliError(`--range is one of ${RANGES.join(", ")}`, EXIT.usage);
          }
          const step = opts.step === undefined ? undefined : parseDuration(String(opts.step));
          if (step === null) throw new CliError("--step is a duration, e.g. 300s, 5m or 1h", EXIT.usage);
          const { api, org } = await session();
          const series = await ok(
            api.GET("/orgs/{org}/instances/{id}/metrics", {
              params: { path: { org, id }, query: { metric: metric as never, range: range as never, step } },
            }),
          );
          const fmt = (v: number | null) => (v === null ? "—" : `${Math.round(v * 10) / 10}${series.unit}`);
          emit(
            opts,
            series,
            (s) => {
              if (s.gpus.every((g) => g.points.every((p) => p.v === null))) {
                return `No ${s.metric} samples in the last ${s.range} yet.`;
              }
              // The last 60 bins fit a terminal line; the summary covers the whole range.
              const lines = s.gpus.map((g) => {
                const vals = g.points.slice(-60).map((p) => p.v);
                return `GPU ${g.gpuIndex}  ${sparkline(vals, s.yMax)}  ${fmt(vals.filter((v) => v !== null).at(-1) ?? null)}`;
              });
              const sum = s.summary;
              return [
                `${s.metric} (${s.unit}), last ${s.range}, ${s.binSeconds}s bins`,
                ...lines,
                `mean ${fmt(sum.mean)} · peak ${fmt(sum.peak)} · latest ${fmt(sum.latest)}`,
              ].join("\n");
            },
            (s) => [s.instanceId],
          );
        }),
      ),
    [
      "forja metrics 3f6c…",
      "forja metrics 3f6c… --metric memory --range 24h",
      "forja metrics 3f6c… --range 7d --step 1h --json",
    ],
  );

  examples(
    program
      .command("snooze <id> <duration>")
      .description("Postpone a pending automatic shutdown (e.g. 30m, 2h), within your organization's policy")
      .action(
        action(async ({ opts, session }, id: string, howLong: string) => {
          const seconds = parseDuration(howLong);
          if (seconds === null || seconds % 60 !== 0) {
            throw new CliError("The duration is whole minutes or hours, e.g. 30m or 2h", EXIT.usage);
          }
          const { api, org } = await session();
          const out = await ok(
            api.POST("/orgs/{org}/instances/{id}/snooze", {
              params: { path: { org, id } },
              body: { minutes: seconds / 60 },
            }),
          );
          emit(
            opts,
            out,
            (o) => `${id}: shutdown postponed until ${o.snoozedUntil}`,
            (o) => [o.instanceId],
          );
        }),
      ),
    ["forja snooze 3f6c… 30m", "forja snooze 3f6c… 2h"],
  );
}
