import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "lib", "i18n", "messages", "public"];
const FILES = ["package-lock.json", "next.config.mjs", "tsconfig.json", "postcss.config.mjs"];

function walk(dir: string, out: string[]): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "__tests__" || entry.name === "node_modules") continue;
      walk(p, out);
    } else out.push(p);
  }
}

/** A hash of the sources a production build depends on: rebuild only when it changes. */
export function sourceFingerprint(root = process.cwd()): string {
  const files: string[] = [];
  for (const d of SOURCES) walk(path.join(root, d), files);
  for (const f of FILES) if (fs.existsSync(path.join(root, f))) files.push(path.join(root, f));
  files.sort();
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(path.relative(root, f));
    hash.update(fs.readFileSync(f));
  }
  return hash.digest("hex");
}

/**
 * A production build into `distDir` unless the one there was made from these sources (its stamp matches);
 * `env` is the build's environment; `announce` runs just before a build starts. Returns whether it built.
 * Throws when `next build` fails.
 */
export function buildIfChanged(
  distDir: string,
  env: NodeJS.ProcessEnv,
  announce?: () => void,
  root = process.cwd(),
): boolean {
  const stamp = path.join(root, distDir, "forja-build-fingerprint");
  const fingerprint = sourceFingerprint(root);
  const built = fs.existsSync(path.join(root, distDir, "BUILD_ID")) && fs.existsSync(stamp);
  if (built && fs.readFileSync(stamp, "utf8") === fingerprint) return false;
  announce?.();
  const r = spawnSync(path.join(root, "node_modules/.bin/next"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, NEXT_DIST_DIR: distDir },
  });
  if (r.status !== 0) throw new Error("next build failed (see the output above).");
  fs.writeFileSync(stamp, fingerprint);
  return true;
}
