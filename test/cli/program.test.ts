import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { offerQuery } from "@/cli/commands/catalog";
import { completionScript } from "@/cli/commands/completion";
import { exitCodeFor } from "@/cli/errors";
import { CATALOG, langFromEnv } from "@/cli/messages";
import { sparkline } from "@/cli/output";
import { buildProgram } from "@/cli/program";

const leaves = (c: Command): Command[] => (c.commands.length ? c.commands.flatMap(leaves) : [c]);

describe("the forja program", () => {
  it("every command's --help ends with examples that start with `forja <its name>`", () => {
    const program = buildProgram();
    const all = leaves(program);
    expect(all.length).toBeGreaterThanOrEqual(19);
    for (const c of all) {
      let help = "";
      c.configureOutput({ writeOut: (s) => (help += s) });
      c.outputHelp();
      const path = c.parent?.parent ? `${c.parent.name()} ${c.name()}` : c.name();
      expect(help, path).toMatch(new RegExp(`Examples:\\n\\s+\\$ forja ${path}`));
    }
  });

  it("completion scripts name every command and its flags", () => {
    const program = buildProgram();
    const bash = completionScript(program, "bash");
    expect(bash).toContain('"quota request") words="--gpu --region --gpus --reason --until');
    expect(bash).toMatch(/"apply"\) words="--file --dry-run --yes/);
    expect(completionScript(program, "zsh")).toMatch(/^autoload -U \+X bashcompinit/);
    expect(completionScript(program, "fish")).toContain(
      "complete -c forja -n __fish_use_subcommand -f -a launch",
    );
  });

  it("maps problems to exit codes: 404→3, 403 and quota/budget 422→4, 409/412→5, field errors→2", () => {
    expect(exitCodeFor(404, {})).toBe(3);
    expect(exitCodeFor(403, {})).toBe(4);
    expect(exitCodeFor(422, { type: "https://forja.dev/problems/quota_exceeded" })).toBe(4);
    expect(exitCodeFor(422, { errors: { name: ["x"] } })).toBe(2);
    expect(exitCodeFor(409, {})).toBe(5);
    expect(exitCodeFor(412, {})).toBe(5);
    expect(exitCodeFor(500, {})).toBe(1);
  });

  it("reads --gpu model:count and --region jurisdiction-or-code into the catalog's query", () => {
    expect(
      offerQuery({ gpu: "H100:8", region: "eu,us-tx-dal1", spot: true, maxPrice: "20", available: true }),
    ).toEqual({
      gpu: "h100",
      gpuCount: "8",
      jurisdiction: ["EU"],
      region: ["us-tx-dal1"],
      pricing: "spot",
      maxPrice: "20",
      available: "1",
    });
    expect(() => offerQuery({ gpu: "h100:3" })).toThrow(/1, 2, 4, 8 or mig/);
  });

  it("draws sparklines to scale", () => {
    expect(sparkline([0, 50, 100, null], 100)).toBe("▁▅█ ");
  });
});

describe("the CLI's message catalog", () => {
  it("has every English message in Spanish, with the same parameters", () => {
    const params = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(CATALOG.es).sort()).toEqual(Object.keys(CATALOG.en).sort());
    for (const [k, text] of Object.entries(CATALOG.en)) {
      expect(params(CATALOG.es[k as keyof typeof CATALOG.es]), k).toEqual(params(text));
    }
  });

  it("reads the language from FORJA_LANG, then the locale variables", () => {
    expect(langFromEnv({ LANG: "es_ES.UTF-8" })).toBe("es");
    expect(langFromEnv({ LC_ALL: "es_MX", LANG: "en_US.UTF-8" })).toBe("es");
    expect(langFromEnv({ FORJA_LANG: "en", LANG: "es_ES.UTF-8" })).toBe("en");
    expect(langFromEnv({ LANG: "C.UTF-8" })).toBe("en");
    expect(langFromEnv({ LANG: "estonian" })).toBe("en");
  });
});
