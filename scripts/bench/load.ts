import autocannon from "autocannon";
import { startConsole } from "./console-server";
import { percentile } from "./stats";
import type { Benchmark } from "./types";

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.FORJA_BENCH_LOAD_SECONDS ?? 30);

type Target = { name: string; url: string; headers: Record<string, string> };

async function hammer(t: Target) {
  const times: number[] = [];
  // A slow answer is measured, not dropped: autocannon's 10 s default would count queueing on a loaded 2-core
  // machine as errors.
  const run = autocannon({
    url: t.url,
    headers: t.headers,
    connections: CONNECTIONS,
    duration: DURATION_S,
    timeout: 60,
  });
  run.on("response", (_client, _status, _bytes, ms) => times.push(ms));
  const r = await run;
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    rps: r.requests.average,
    total: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

/**
 * 50 concurrent connections for 30 s (autocannon, loopback) against the production build with the demo data:
 * the catalog page as the signed-in owner, and the instances API with a real read token. The API's per-token
 * read limit (600/min, a rate limit and not a capacity) is raised for the run, or it would answer 429s; every
 * other check (session, token lookup, the rate-limit bookkeeping itself) runs as in production. Reported once.
 */
export const loadBench: Benchmark = {
  name: "load",
  description: `${CONNECTIONS} connections × ${DURATION_S} s (autocannon) on the catalog page and the instances API`,
  async setup() {
    const server = await startConsole({ env: { FORJA_API_READ_LIMIT: "100000000" } });
    const { orgSlug, apiToken } = server.fixture;
    const targets: Target[] = [
      {
        name: "catalog page",
        url: `${server.baseUrl}/${orgSlug}/catalog`,
        headers: { cookie: server.cookie },
      },
      {
        name: "GET instances API",
        url: `${server.baseUrl}/api/v1/orgs/${orgSlug}/instances`,
        headers: { authorization: `Bearer ${apiToken}` },
      },
    ];
    const notes: string[] = [];
    try {
      for (const t of targets) {
        // A few requests first, so the run measures the route rather than its first render.
        for (let i = 0; i < 3; i++) await fetch(t.url, { headers: t.headers }).then((r) => r.arrayBuffer());
        const r = await hammer(t);
        notes.push(
          `${t.name.padEnd(18)} p50 ${r.p50.toFixed(0).padStart(5)} ms   p95 ${r.p95.toFixed(0).padStart(5)} ms   ${r.rps.toFixed(1).padStart(7)} req/s   ${r.total} requests, ${r.errors} errors${r.errors ? "  ✗ (0 expected)" : "  ✓"}`,
        );
      }
    } finally {
      await server.stop();
    }
    return { variants: [], notes };
  },
};
