/**
 * The lib/ domain graph, checked where Biome cannot: Biome's noImportCycles sees file cycles through value
 * imports, and noRestrictedImports sees import specifiers, but neither knows what a "domain" is. Here every
 * non-test file under lib/<domain>/ is read, its imports (value and type, static and dynamic) are mapped to
 * domains, and two rules are checked:
 *  1. a relative import never leaves its domain (`../other/x` would dodge the deep-import rule);
 *  2. the domain graph has no cycle, type imports included (a type cycle is still two domains that can only
 *     change together).
 * Used by `npm run lint` (scripts/check-layers.ts) and by its test on a temporary tree.
 */
import fs from "node:fs";
import path from "node:path";

export type LayerProblem = { file?: string; message: string };
export type LayerReport = { edges: Map<string, Set<string>>; problems: LayerProblem[] };

const SOURCE = /\.(ts|tsx|mts)$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "__tests__" || e.name === "node_modules" ? [] : sourceFiles(p);
    return SOURCE.test(e.name) && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}

/** The domain a path under lib/ belongs to, or null when it is outside lib/. */
function domainOf(libDir: string, file: string): string | null {
  const rel = path.relative(libDir, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0] ?? null;
}

/** Cycles in a directed graph, each once (Tarjan's strongly connected components of size > 1). */
export function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

export function checkLayers(root: string): LayerReport {
  const libDir = path.join(root, "lib");
  const edges = new Map<string, Set<string>>();
  const problems: LayerProblem[] = [];
  for (const file of sourceFiles(libDir)) {
    const from = domainOf(libDir, file);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? "";
      let to: string | null = null;
      if (spec.startsWith("@/lib/")) to = spec.slice("@/lib/".length).split("/")[0] ?? null;
      else if (spec.startsWith(".")) {
        to = domainOf(libDir, path.resolve(path.dirname(file), spec));
        if (to !== from) {
          problems.push({
            file: path.relative(root, file),
            message: `relative import "${spec}" leaves lib/${from}: import @/lib/${to ?? "…"} (its index.ts) instead`,
          });
        }
      }
      if (to && to !== from) edges.get(from)?.add(to);
    }
  }
  for (const cycle of cyclesOf(edges)) {
    problems.push({ message: `lib/ domain cycle: ${cycle.join(" ↔ ")} (pass the higher one in instead)` });
  }
  return { edges, problems };
}
