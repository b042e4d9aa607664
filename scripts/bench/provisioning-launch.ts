import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import type { Ctx } from "@/lib/core";
import { getDb, getPool } from "@/lib/db/client";
import { quotas } from "@/lib/db/schema";
import { launch, seedImages } from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import type { Benchmark } from "./types";

const CALLERS = 50;
const PER_CALLER = 8;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Per-call latencies of `fn` with `CALLERS` concurrent callers, each calling it PER_CALLER times. */
async function concurrent(fn: (i: number) => Promise<unknown>) {
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

/**
 * launch() (role, project, offering, price, policy, image checks; quota under an advisory lock; row, two
 * events, a transition and an audit row in one transaction) against the least a transaction can do: insert
 * one row. All launches are for one organization × GPU model × region, the case the quota lock serializes.
 */
export const provisioningLaunch: Benchmark = {
  name: "provisioning-launch",
  description: `launch() vs. a bare one-row insert transaction, also with ${CALLERS} concurrent callers`,
  async setup() {
    await ensureCatalogSeeded();
    const db = getDb();
    await db.transaction((tx) => seedImages(tx));
    const { user, org } = await signUp(
      {},
      {
        name: "Bench",
        email: `bench-launch-${Date.now()}@example.test`,
        password: "bench bench bench",
        organizationName: "Bench launch",
      },
    );
    await db
      .insert(quotas)
      .values({ orgId: org.id, gpuModelId: "h100", regionCode: "eu-es-mad1", maxGpus: 1_000_000 });
    await db.execute(
      sql`create table if not exists bench_rows (id bigserial primary key, payload text not null)`,
    );
    const ctx: Ctx = { actor: { kind: "user", userId: user.id, email: user.email, isOperator: false } };
    let seq = 0;
    const oneLaunch = () =>
      launch(ctx, org.slug, {
        kind: "container",
        name: `b-${seq++}`,
        project: "default",
        region: "eu-es-mad1",
        instanceType: "h100.1x",
        image: "pytorch-2.5-cuda12.4",
      });
    const oneInsert = () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into bench_rows (payload) values (${`row-${seq++}`})`);
      });
    const l = await concurrent(oneLaunch);
    const b = await concurrent(oneInsert);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    return {
      baseline: "bare one-row insert transaction",
      notes: [
        `${CALLERS} concurrent callers × ${PER_CALLER} calls on a pool of ${getPool().options.max} connections:`,
        `  launch:      p50 ${f(l.p50)}  p95 ${f(l.p95)}  (${l.perSecond.toFixed(0)}/s)`,
        `  bare insert: p50 ${f(b.p50)}  p95 ${f(b.p95)}  (${b.perSecond.toFixed(0)}/s)`,
        `  ratio launch / bare insert: p50 ×${(l.p50 / b.p50).toFixed(1)}, p95 ×${(l.p95 / b.p95).toFixed(1)}`,
        "one caller at a time:",
      ],
      variants: [
        { name: "bare one-row insert transaction", run: oneInsert },
        { name: "launch (h100.1x, one caller)", run: oneLaunch },
      ],
    };
  },
};
