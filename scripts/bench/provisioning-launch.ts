import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import type { Ctx } from "@/lib/core";
import { getDb, getPool } from "@/lib/db/client";
import { quotas } from "@/lib/db/schema";
import { launch, launchBatching, launchGroups, seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { cpuCounter } from "./cpu";
import { median } from "./stats";
import type { Benchmark } from "./types";

const CALLERS = 50;
const PER_CALLER = 8;
const ROUNDS = 5;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

type Concurrent = { p50: number; p95: number; perSecond: number };

/** Per-call latencies of `fn` with `CALLERS` concurrent callers, each calling it PER_CALLER times. */
async function concurrent(fn: (i: number) => Promise<unknown>): Promise<Concurrent> {
  const samples: number[] = [];
  let n = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      for (let k = 0; k < PER_CALLER; k++) {
        const t = performance.now();
        await fn(n++);
        samples.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 50), p95: pct(samples, 95), perSecond: (samples.length / wall) * 1000 };
}

/** Median CPU per call over the rounds (µs, Node and PostgreSQL), and launch's total over the bare insert's. */
function cpuLines(per: { bare: Array<[number, number]>; launch: Array<[number, number]> }): string[] {
  if (per.bare.length === 0) return ["  CPU per call: not measured (no /proc here)"];
  const of = (xs: Array<[number, number]>) => ({
    node: median(xs.map((x) => x[0])),
    pg: median(xs.map((x) => x[1])),
  });
  const bare = of(per.bare);
  const launch = of(per.launch);
  const us = (x: number) => `${x.toFixed(0)} µs`;
  return [
    `  CPU per call (median of the rounds): launch Node ${us(launch.node)} + PostgreSQL ${us(launch.pg)}; ` +
      `bare insert Node ${us(bare.node)} + PostgreSQL ${us(bare.pg)}; ` +
      `total ×${((launch.node + launch.pg) / (bare.node + bare.pg)).toFixed(1)} (50 callers keep both cores busy: latency under load follows the CPU a call costs)`,
  ];
}

/**
 * launch() (the access gate, project, offering, price, policy and image in one read that also takes the quota
 * lock; the row, its two events, the audit row and the quota standing in one statement; both prepared; under
 * load, launches of different organizations share a transaction and that statement) against the least a
 * transaction can do: insert one row. With one
 * caller; with 50 concurrent callers spread over 50 organizations (what should run in parallel); and with 50
 * on one organization × GPU model × region, which the quota lock serializes on purpose (throughput reported).
 */
export const provisioningLaunch: Benchmark = {
  name: "provisioning-launch",
  description: `launch() vs. a bare one-row insert transaction, also with ${CALLERS} concurrent callers`,
  async setup() {
    await ensureCatalogSeeded();
    const db = getDb();
    await db.transaction((tx) => seedImages(tx));
    const stamp = Date.now();
    const { user, org } = await signUp(
      {},
      {
        name: "Bench",
        email: `bench-launch-${stamp}@example.test`,
        password: "bench bench bench",
        organizationName: "Bench launch",
      },
    );
    // 49 more organizations the same user owns, each with a default project (signUp hashes a password: slow).
    const more = await db.execute<{ id: string; slug: string }>(sql`
      with o as (
        insert into organizations (slug, name)
        select ${`bench-l-${stamp}-`} || n, 'Bench launch ' || n from generate_series(1, ${CALLERS - 1}) n
        returning id, slug),
      m as (insert into memberships (org_id, user_id, role) select id, ${user.id}, 'owner' from o),
      p as (insert into projects (org_id, slug, name) select id, 'default', 'Default' from o)
      select id, slug from o`);
    const orgs = [{ id: org.id, slug: org.slug }, ...more.rows];
    await db
      .insert(quotas)
      .values(
        orgs.map((o) => ({ orgId: o.id, gpuModelId: "h100", regionCode: "eu-es-mad1", maxGpus: 1_000_000 })),
      );
    await db.execute(
      sql`create table if not exists bench_rows (id bigserial primary key, payload text not null)`,
    );
    const ctx: Ctx = { actor: { kind: "user", userId: user.id, email: user.email, isOperator: false } };
    let seq = 0;
    const launchIn = (slug: string) =>
      launch(ctx, slug, {
        kind: "container",
        name: `b-${seq++}`,
        project: "default",
        region: "eu-es-mad1",
        instanceType: "h100.1x",
        image: "pytorch-2.5-cuda12.4",
      });
    const oneLaunch = () => launchIn(org.slug);
    const oneInsert = () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into bench_rows (payload) values (${`row-${seq++}`})`);
      });
    // Warm-up (JIT, plans, the pool's connections) before anything is timed: every organization launches
    // and the bare insert runs concurrently, twice.
    for (let w = 0; w < 2; w++) {
      await Promise.all(orgs.map((o) => launchIn(o.slug).then(oneInsert)));
      await concurrent(oneInsert);
    }
    // Rounds of bare insert → launch over 50 organizations → bare insert: each round's ratio divides by the
    // bare insert measured around it (the machine's load drifts within seconds), and the median round is the
    // figure (one noisy round moves it little).
    // Each call's CPU, in this process and in PostgreSQL, is counted too: with 50 callers on two cores the
    // latencies follow it.
    const cpu = await cpuCounter(db);
    const calls = CALLERS * PER_CALLER;
    const cpuPerCall = {
      bare: [] as Array<[number, number]>,
      launch: [] as Array<[number, number]>,
      alone: [] as Array<[number, number]>,
    };
    const counted = async (kind: "bare" | "launch" | "alone", fn: () => Promise<Concurrent>) => {
      if (!cpu) return fn();
      const m = await cpu.measure(fn);
      cpuPerCall[kind].push([(m.nodeMs * 1000) / calls, (m.pgMs * 1000) / calls]);
      return m.value;
    };
    // Launches over the 50 organizations between two bare-insert runs: each measure divides by the bare insert
    // measured around it (the machine's load drifts within seconds).
    const spreadLaunches = () =>
      concurrent((i) => launchIn((orgs[i % orgs.length] as { slug: string }).slug));
    const between = async (kind: "launch" | "alone") => {
      const before = await counted("bare", () => concurrent(oneInsert));
      const launch = await counted(kind, spreadLaunches);
      const after = await counted("bare", () => concurrent(oneInsert));
      return { bare: { p50: (before.p50 + after.p50) / 2, p95: (before.p95 + after.p95) / 2 }, launch };
    };
    const groupsBefore = launchGroups();
    const spreadRounds: Array<{ bare: { p50: number; p95: number }; launch: Concurrent }> = [];
    for (let r = 0; r < ROUNDS; r++) spreadRounds.push(await between("launch"));
    const groupsAfter = launchGroups();
    const groups = {
      groups: groupsAfter.groups - groupsBefore.groups,
      grouped: groupsAfter.grouped - groupsBefore.grouped,
      largest: groupsAfter.largest,
    };
    // The same launches with coalescing off (each in a transaction of its own): what going together saves.
    launchBatching.on = false;
    const alone = await between("alone").finally(() => {
      launchBatching.on = true;
    });
    const b = await concurrent(oneInsert);
    const same = await concurrent(oneLaunch);
    const b2 = await concurrent(oneInsert);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const line = (name: string, r: { p50: number; p95: number; perSecond?: number }) =>
      `  ${name.padEnd(34)} p50 ${f(r.p50).padStart(9)}  p95 ${f(r.p95).padStart(9)}` +
      (r.perSecond === undefined ? "" : `  (${r.perSecond.toFixed(0)}/s)`);
    const base = { p50: (b.p50 + b2.p50) / 2, p95: (b.p95 + b2.p95) / 2 };
    const ratio = (r: { p50: number; p95: number }, to: { p50: number; p95: number }) =>
      `p50 ×${(r.p50 / to.p50).toFixed(1)}, p95 ×${(r.p95 / to.p95).toFixed(1)}`;
    const p95Ratios = spreadRounds.map((x) => x.launch.p95 / x.bare.p95).sort((x, y) => x - y);
    const medianRatio = p95Ratios[Math.floor(p95Ratios.length / 2)] as number;
    return {
      baseline: "bare one-row insert transaction",
      notes: [
        `${CALLERS} concurrent callers × ${PER_CALLER} calls on a pool of ${getPool().options.max} connections, ` +
          `${ROUNDS} rounds over ${orgs.length} organizations (bare insert before and after each):`,
        ...spreadRounds.flatMap((x, i) => [
          line(`round ${i + 1}: bare insert`, x.bare),
          `${line(`round ${i + 1}: launch`, x.launch)}  ${ratio(x.launch, x.bare)}`,
        ]),
        `  ratio launch over ${orgs.length} organizations / bare insert, p95 per round: ` +
          `${p95Ratios.map((x) => `×${x.toFixed(1)}`).join(" ")}; median ×${medianRatio.toFixed(1)} (target ≤ ×4)`,
        ...cpuLines(cpuPerCall),
        `  launches that went together: ${groups.grouped} in ${groups.groups} transactions ` +
          `(${groups.groups > 0 ? (groups.grouped / groups.groups).toFixed(1) : "0"} a transaction, at most ${groups.largest}); ` +
          "the rest ran alone (fewer than four launch transactions were running)",
        line("bare insert (around it)", alone.bare),
        `${line("launch, 50 orgs, each alone", alone.launch)}  ${ratio(alone.launch, alone.bare)} (coalescing off: the baseline)`,
        ...(cpuPerCall.alone.length > 0
          ? [
              `  CPU per call, each alone: launch ${((cpuPerCall.alone[0]?.[0] ?? 0) + (cpuPerCall.alone[0]?.[1] ?? 0)).toFixed(0)} µs ` +
                "(Node + PostgreSQL; one round)",
            ]
          : []),
        line("bare insert (before)", b),
        line("launch, one org × model × region", same),
        line("bare insert (after)", b2),
        `  ratio launch on one key / bare insert: ${ratio(same, base)} (serialized by the quota lock: ${same.perSecond.toFixed(0)} launches/s)`,
        "one caller at a time (target: launch ≤ ×8):",
      ],
      variants: [
        { name: "bare one-row insert transaction", run: oneInsert },
        { name: "launch (h100.1x, one caller)", run: oneLaunch },
      ],
    };
  },
};
