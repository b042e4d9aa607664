import { Command, CommanderError } from "commander";
import { registerAccount } from "./commands/account";
import { registerAdmin } from "./commands/admin";
import { registerApply } from "./commands/apply";
import { registerCatalog } from "./commands/catalog";
import { registerCompletion } from "./commands/completion";
import { registerInstances } from "./commands/instances";
import { registerObserve } from "./commands/observe";
import { registerServices } from "./commands/services";
import { registerUsage } from "./commands/usage";
import { CliError, EXIT } from "./errors";
import { examples } from "./kit";
import { setLang, t } from "./messages";

export function buildProgram(): Command {
  const program = new Command("forja")
    .description("Forja from a terminal: GPU offers, instances, usage, quotas and declarative apply")
    .version("0.1.0")
    .option("--json", "print the API's JSON (stable shapes, see docs/cli.md)")
    .option("-q, --quiet", "print ids only")
    .option("--org <slug>", "organization (default: the one the token reaches; or FORJA_ORG)")
    .option(
      "--lang <en|es>",
      "language of messages, also sent as Accept-Language (default: FORJA_LANG, LANG)",
    )
    .showHelpAfterError("(forja --help lists the commands; forja COMMAND --help shows examples)")
    .exitOverride();
  examples(program, [
    "forja login --url https://forja.example.com",
    "forja offers --gpu h100:8 --available",
    "forja ls",
  ]);
  registerAccount(program);
  registerCatalog(program);
  registerInstances(program);
  registerObserve(program);
  registerUsage(program);
  registerServices(program);
  registerAdmin(program);
  registerApply(program);
  registerCompletion(program);
  for (const c of program.commands) c.exitOverride();
  program.hook("preAction", (_, actionCmd) => {
    try {
      setLang(actionCmd.optsWithGlobals().lang);
    } catch (err) {
      throw new CliError((err as Error).message, EXIT.usage);
    }
  });
  return program;
}

/** Run the CLI; resolves to the exit code (main.ts exits with it, tests may call this directly). */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; everything else commander refuses is a usage error.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliError) {
      process.stderr.write(`${t("errorPrefix")}: ${err.message}\n`);
      if (program.opts().json && err.problem)
        process.stdout.write(`${JSON.stringify(err.problem, null, 2)}\n`);
      return err.exitCode;
    }
    process.stderr.write(`error: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT.error;
  }
}
