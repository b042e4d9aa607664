/**
 * `npm test`: typecheck, lint, unit + integration tests on a throwaway embedded PostgreSQL, then the Playwright
 * suite in Chromium. Fails at once, with the fix, when no Chromium is installed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

function chromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string)) ?? null;
}

function run(label: string, cmd: string, args: string[]): void {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n✗ ${label} failed after ${secs}s`);
    process.exit(r.status ?? 1);
  }
  console.log(`✓ ${label} (${secs}s)`);
}

const skipE2e = process.argv.includes("--no-e2e");
if (!skipE2e && !chromium()) {
  console.error(
    "No Chromium found for the browser tests. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium/Chrome binary.",
  );
  process.exit(1);
}
const bin = (name: string) => `node_modules/.bin/${name}`;
run("typecheck", bin("tsc"), ["--noEmit"]);
run("lint", bin("biome"), ["check", "."]);
run("unit + integration (vitest, real PostgreSQL)", bin("vitest"), ["run"]);
if (!skipE2e) run("browser journeys (Playwright, Chromium)", bin("playwright"), ["test"]);
