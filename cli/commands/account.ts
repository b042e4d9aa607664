import type { Command } from "commander";
import { apiFor, ok } from "../client";
import { loadCredentials, saveCredentials } from "../config";
import { CliError, EXIT } from "../errors";
import { action, examples } from "../kit";
import { emit, table } from "../output";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

export function registerAccount(program: Command) {
  examples(
    program
      .command("login")
      .description("Check a token against the server and store both (mode 0600) in your config dir")
      .option("--url <url>", "the console's address (or FORJA_URL)")
      .option("--token <token>", "an API token from Settings → API tokens (or FORJA_TOKEN, or stdin)")
      .action(
        action(async ({ opts }) => {
          const url = String(opts.url ?? process.env.FORJA_URL ?? "").replace(/\/+$/, "");
          if (!url) throw new CliError("Give the server with --url (or FORJA_URL)", EXIT.usage);
          let token = String(opts.token ?? process.env.FORJA_TOKEN ?? "");
          if (!token && !process.stdin.isTTY) token = await readStdin();
          if (!token) throw new CliError("Give a token with --token, FORJA_TOKEN or on stdin", EXIT.usage);
          const me = await ok(apiFor({ url, token }).GET("/me"));
          const org = me.organizations[0];
          const file = saveCredentials({ url, token, org: org?.slug });
          emit(
            opts,
            { url, user: me.user, organization: org ?? null, file },
            () =>
              `Logged in to ${url} as ${me.user.email}${org ? ` in ${org.slug} (${org.role})` : ""}; saved to ${file}`,
            () => [me.user.id],
          );
        }),
      ),
    [
      "forja login --url https://forja.example.com --token forja_1a2b3c4d_…",
      'echo "$TOKEN" | forja login --url https://forja.example.com',
    ],
  );

  examples(
    program
      .command("whoami")
      .description("The user and organization these credentials act as")
      .action(
        action(async ({ opts }) => {
          const creds = loadCredentials();
          const me = await ok(apiFor(creds).GET("/me"));
          emit(
            opts,
            me,
            (m) =>
              `${m.user.email} (${m.user.name}) via ${m.authentication} at ${creds.url}\n\n${table(
                m.organizations,
                [
                  { header: "ORGANIZATION", value: (o) => o.slug },
                  { header: "ROLE", value: (o) => o.role },
                  { header: "JURISDICTIONS", value: (o) => o.allowedJurisdictions.join(",") || "any" },
                ],
              )}`,
            (m) => [m.user.id],
          );
        }),
      ),
    ["forja whoami", "forja whoami --json | jq -r .user.email"],
  );
}
