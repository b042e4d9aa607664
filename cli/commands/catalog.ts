import type { Command } from "commander";
import { ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, table, usd } from "../output";

const GPU_COUNTS = new Set(["1", "2", "4", "8", "mig"]);

/** `--gpu h100:8` → model h100, 8 GPUs; `--region eu` (no hyphen) is a jurisdiction, `eu-fi-hel1` a region. */
export function offerQuery(opts: Record<string, unknown>) {
  const query: Record<string, string | string[]> = {};
  if (typeof opts.gpu === "string") {
    const [model, count] = opts.gpu.toLowerCase().split(":");
    if (model) query.gpu = model;
    if (count) {
      if (!GPU_COUNTS.has(count))
        throw new CliError(`--gpu: the count is one of 1, 2, 4, 8 or mig`, EXIT.usage);
      query.gpuCount = count;
    }
  }
  if (typeof opts.region === "string") {
    for (const r of opts.region.split(",")) {
      if (r.includes("-")) query.region = [...((query.region as string[]) ?? []), r.toLowerCase()];
      else query.jurisdiction = [...((query.jurisdiction as string[]) ?? []), r.toUpperCase()];
    }
  }
  if (opts.spot) query.pricing = "spot";
  if (opts.maxPrice !== undefined) {
    const n = Number(opts.maxPrice);
    if (!(n > 0)) throw new CliError("--max-price: a price in USD per hour, above 0", EXIT.usage);
    query.maxPrice = String(n);
  }
  if (opts.available) query.available = "1";
  return query;
}

export function registerCatalog(program: Command) {
  examples(
    program
      .command("offers")
      .description("GPU offerings with live availability, cheapest first")
      .option("--gpu <model[:count]>", "GPU model and count per instance (1, 2, 4, 8 or mig), e.g. h100:8")
      .option("--region <codes>", "region codes (eu-fi-hel1) or jurisdictions (eu, us), comma-separated")
      .option("--spot", "spot prices (preemptible)")
      .option("--max-price <usd>", "at most this many USD per hour")
      .option("--available", "only what could be placed right now")
      .action(
        action(async ({ opts, session }) => {
          const { api, org } = await session();
          const page = await ok(
            api.GET("/orgs/{org}/catalog/offerings", {
              params: { path: { org }, query: offerQuery(opts) as never },
            }),
          );
          emit(
            opts,
            page,
            (p) =>
              p.items.length === 0
                ? "No offering matches these filters; try without --available or with a higher --max-price."
                : table(p.items, [
                    { header: "TYPE", value: (o) => o.instanceTypeId },
                    { header: "REGION", value: (o) => o.regionCode },
                    {
                      header: "GPU",
                      value: (o) =>
                        `${o.gpuCount}× ${o.gpuModelName}${o.migProfile ? ` ${o.migProfile}` : ""}`,
                    },
                    { header: "MEM/GPU", value: (o) => `${o.gpuMemoryGib} GiB`, right: true },
                    { header: "USD/H", value: (o) => usd(o.price), right: true },
                    {
                      header: "AVAILABLE",
                      value: (o) => (o.allowed ? o.available : "not allowed"),
                      right: true,
                    },
                  ]),
            (p) => p.items.map((o) => `${o.instanceTypeId}@${o.regionCode}`),
          );
        }),
      ),
    ["forja offers --gpu h100:8 --region eu --available", "forja offers --spot --max-price 20 --json"],
  );
}
