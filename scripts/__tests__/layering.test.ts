import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLayers } from "../layers";

/**
 * The layering is enforced by `npm run lint` (biome.json's noImportCycles/noRestrictedImports, then
 * scripts/check-layers.ts). These tests run the real Biome with the project's biome.json on a small temporary
 * tree with one deliberate violation per rule, and on the project itself, so a rule that stops matching (a
 * renamed option, a pattern that no longer fires) fails here instead of silently letting a cycle in.
 */
const repo = path.resolve(import.meta.dirname, "../..");
const biome = path.join(repo, "node_modules/.bin/biome");
let tmp: string;

function write(rel: string, text: string) {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

/** Biome's lint diagnostics on the temporary tree: "file rule" per finding. */
function lintTmp(): string[] {
  const r = spawnSync(biome, ["lint", "--max-diagnostics=100", "--colors=off", "."], {
    cwd: tmp,
    encoding: "utf8",
  });
  const out = `${r.stdout}\n${r.stderr}`;
  return [...out.matchAll(/^(\S+\.tsx?):\d+:\d+ (lint\/\S+)/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "forja-layers-"));
  fs.copyFileSync(path.join(repo, "biome.json"), path.join(tmp, "biome.json"));
  // Biome resolves "@/…" through tsconfig paths, and only inside a package (it looks for package.json).
  write("package.json", JSON.stringify({ name: "layers-probe", type: "module" }));
  write("tsconfig.json", JSON.stringify({ compilerOptions: { paths: { "@/*": ["./*"] } } }));
  // A file-level cycle through the domains' faces: a → b → a.
  write("lib/alpha/index.ts", 'import { b } from "@/lib/beta";\nexport const a = () => b;\n');
  write("lib/beta/index.ts", 'import { a } from "@/lib/alpha";\nexport const b = () => a;\n');
  // A deep import into another domain, Next.js in lib, lib → components, a leaf importing a domain.
  write("lib/gamma/index.ts", 'import { x } from "@/lib/delta/internal";\nexport const g = x;\n');
  write("lib/delta/index.ts", 'export { x } from "./internal";\n');
  write("lib/delta/internal.ts", "export const x = 1;\n");
  write("lib/eps/index.ts", 'import { redirect } from "next/navigation";\nexport const e = redirect;\n');
  write("lib/zeta/index.ts", 'import { Button } from "@/components/button";\nexport const z = Button;\n');
  write("lib/access/index.ts", 'import { x } from "@/lib/delta";\nexport const acc = x;\n');
  write("components/button.ts", "export const Button = 1;\n");
  // Allowed: a domain's face, the db by path, a client-safe schemas module, the next-auth glue.
  write(
    "lib/ok/index.ts",
    'import { x } from "@/lib/delta";\nimport { s } from "@/lib/delta/schemas";\nexport const ok = [x, s];\n',
  );
  write("lib/delta/schemas.ts", "export const s = 1;\n");
  write("lib/auth/session.ts", 'import { redirect } from "next/navigation";\nexport const r = redirect;\n');
  // The domain graph in scripts/layers.ts: a type-only cycle and a relative import out of its domain.
  write("lib/eta/index.ts", 'import type { T } from "@/lib/theta";\nexport type E = T;\n');
  write("lib/theta/index.ts", 'import type { E } from "@/lib/eta";\nexport type T = E | 1;\n');
  write("lib/iota/index.ts", 'import { x } from "../delta/internal";\nexport const i = x;\n');
  // The CLI talks to the REST API only: no lib/ (the database least of all); its own files and packages are fine.
  write("cli/db.ts", 'import { x } from "@/lib/delta";\nexport const c = x;\n');
  write(
    "cli/ok.ts",
    'import { Command } from "commander";\nimport { c } from "./db";\nexport const ok = [Command, c];\n',
  );
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("npm run lint keeps lib/ layered", () => {
  it("biome fails on a cycle, a deep import, next/* in lib, lib → components and a leaf importing a domain", () => {
    expect(lintTmp()).toEqual([
      "cli/db.ts lint/style/noRestrictedImports",
      "lib/access/index.ts lint/style/noRestrictedImports",
      "lib/alpha/index.ts lint/suspicious/noImportCycles",
      "lib/beta/index.ts lint/suspicious/noImportCycles",
      "lib/eps/index.ts lint/style/noRestrictedImports",
      "lib/gamma/index.ts lint/style/noRestrictedImports",
      "lib/zeta/index.ts lint/style/noRestrictedImports",
    ]);
  });

  // Biome has no notion of a domain, so a relative import out of one (lib/iota) is scripts/layers.ts's job.
  it("the layers check fails on a domain cycle (types too) and a relative import across domains", () => {
    const { problems } = checkLayers(tmp);
    const messages = problems.map((p) => `${p.file ?? ""} ${p.message}`);
    expect(messages).toContainEqual(expect.stringContaining("lib/iota/index.ts relative import"));
    expect(messages).toContainEqual(expect.stringContaining("alpha ↔ beta"));
    expect(messages).toContainEqual(expect.stringContaining("eta ↔ theta"));
  });

  it("passes on the project as it is", () => {
    expect(checkLayers(repo).problems).toEqual([]);
    const r = spawnSync(biome, ["lint", "--colors=off", "lib", "app", "components", "scripts", "cli"], {
      cwd: repo,
      encoding: "utf8",
    });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/noImportCycles|noRestrictedImports/);
    expect(r.status).toBe(0);
  });
});
