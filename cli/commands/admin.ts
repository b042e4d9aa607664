import type { Command } from "commander";
import { everyPage, ok } from "../client";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, table } from "../output";

/**
 * Platform operators' commands over /api/v1/admin. They need an admin-scope token (Settings → API tokens,
 * offered to operators only); any other token gets the API's 403, exit 4.
 */
export function registerAdmin(program: Command) {
  const admin = program
    .command("admin")
    .description("Platform operators (an admin-scope token): the quota request queue");

  examples(
    admin
      .command("quota-requests")
      .description("Quota requests of every organization, open first")
      .option("--status <status>", "open or decided")
      .action(
        action(async ({ opts, session }) => {
          const status = opts.status === undefined ? undefined : String(opts.status);
          if (status !== undefined && status !== "open" && status !== "decided") {
            throw new CliError("--status is open or decided", EXIT.usage);
          }
          const { api } = await session();
          const items = await everyPage((cursor) =>
            api.GET("/admin/quota-requests", { params: { query: { limit: 100, cursor, status } as never } }),
          );
          emit(
            opts,
            { items },
            (d) =>
              d.items.length === 0
                ? "No quota requests."
                : table(d.items, [
                    { header: "ORGANIZATION", value: (r) => r.orgSlug },
                    { header: "GPU", value: (r) => r.gpuModelId },
                    { header: "REGION", value: (r) => r.regionCode },
                    { header: "ASKED", value: (r) => r.requestedGpus, right: true },
                    { header: "NOMINAL", value: (r) => r.nominalGpus, right: true },
                    { header: "STATUS", value: (r) => r.status },
                    { header: "ID", value: (r) => r.id },
                  ]),
            (d) => d.items.map((r) => r.id),
          );
        }),
      ),
    ["forja admin quota-requests --status open", "forja admin quota-requests --json | jq '.items[0]'"],
  );

  examples(
    admin
      .command("approve <id>")
      .description("Approve a quota request, in full or in part (--gpus)")
      .option("--gpus <n>", "grant this many GPUs in total instead of what was asked")
      .option("--message <text>", "a note to the requester", "")
      .action(
        action(async ({ opts, session }, id: string) => {
          const grantedGpus = opts.gpus === undefined ? undefined : Number(opts.gpus);
          if (grantedGpus !== undefined && !(Number.isInteger(grantedGpus) && grantedGpus > 0)) {
            throw new CliError("--gpus: a whole number above 0", EXIT.usage);
          }
          const { api } = await session();
          const r = await ok(
            api.POST("/admin/quota-requests/{id}/approve", {
              params: { path: { id } },
              body: { grantedGpus, message: String(opts.message) },
            }),
          );
          emit(
            opts,
            r,
            (v) => `${v.id}: ${v.status} (${v.grantedGpus ?? "—"} GPUs)`,
            (v) => [v.id],
          );
        }),
      ),
    ["forja admin approve 5b1c…", "forja admin approve 5b1c… --gpus 16 --message 'half now, more in March'"],
  );

  examples(
    admin
      .command("deny <id>")
      .description("Deny a quota request")
      .option("--message <text>", "why, for the requester", "")
      .action(
        action(async ({ opts, session }, id: string) => {
          const { api } = await session();
          const r = await ok(
            api.POST("/admin/quota-requests/{id}/deny", {
              params: { path: { id } },
              body: { message: String(opts.message) },
            }),
          );
          emit(
            opts,
            r,
            (v) => `${v.id}: ${v.status}`,
            (v) => [v.id],
          );
        }),
      ),
    ["forja admin deny 5b1c… --message 'no capacity this quarter'"],
  );
}
