/**
 * `npm run lint`, second half (after `biome check`): the lib/ domain graph has no cycle and no relative
 * import leaves its domain (see scripts/layers.ts). `--graph` prints the domain graph, lowest first.
 */
import { checkLayers } from "./layers";

const { edges, problems } = checkLayers(process.cwd());
if (process.argv.includes("--graph") && problems.length === 0) {
  // Height in the (acyclic) graph: 0 for a domain that imports no other, else 1 + its highest import.
  const height = new Map<string, number>();
  const h = (d: string): number =>
    height.get(d) ?? height.set(d, Math.max(-1, ...[...(edges.get(d) ?? [])].map(h)) + 1).get(d) ?? 0;
  for (const [from, to] of [...edges].sort((a, b) => h(a[0]) - h(b[0]) || a[0].localeCompare(b[0]))) {
    console.log(`lib/${from} → ${[...to].sort().join(", ") || "(nothing)"}`);
  }
}
for (const p of problems) console.error(`✗ ${p.file ? `${p.file}: ` : ""}${p.message}`);
if (problems.length > 0) process.exit(1);
console.log(`lib/ layers: ${edges.size} domains, no cycle, no relative import across domains`);
