import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { signUp } from "@/lib/auth";
import { type Ctx, systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { regions } from "@/lib/db/schema";
import {
  createSlurmProvider,
  launch,
  reconcileInstances,
  seedImages,
  setRegionProvider,
  slurmConfigSchema,
  terminate,
} from "@/lib/provisioning";
import { ensureCatalogSeeded } from "@/lib/seed";
import { startTestCluster } from "@/test/slurm/cluster";
import type { Benchmark } from "./types";

const REGION = "bench-slurm1";
const POLL_MS = 50;
const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * On a real Slurm cluster started here (test/slurm/cluster.ts): a 1-GPU job from submission to RUNNING, three ways.
 * Baseline: `sbatch` then polling `squeue` until RUNNING — Slurm's own latency on this host. Then Forja's
 * `launch()` (admission) followed by worker passes back to back, timed until Slurm reports the job RUNNING, and
 * until Forja's row says running. Each run cancels its job before the next. The worker runs a pass every 2 s in
 * production; here passes run back to back, so the figures are the pipeline's cost, not the tick's wait.
 */
export const slurmBench: Benchmark = {
  name: "slurm",
  description: "submission → RUNNING: sbatch directly vs Forja's launch() on a Slurm-backed region",
  async setup() {
    const cluster = await startTestCluster({ nodesA: 2 });
    try {
      return await prepare(cluster);
    } catch (e) {
      await cluster.stop(); // a failed setup must not leave munged/slurmctld/slurmd behind
      throw e;
    }
  },
};

async function prepare(cluster: Awaited<ReturnType<typeof startTestCluster>>) {
  await ensureCatalogSeeded();
  await getDb().transaction((tx) => seedImages(tx));
  await getDb()
    .insert(regions)
    .values({
      code: REGION,
      name: "Bench",
      city: "Bench",
      country: "ES",
      jurisdiction: "EU",
      pue: 1.2,
      gridGco2PerKwh: 150,
    })
    .onConflictDoNothing();
  await getDb().execute(sql`
      insert into prices (instance_type_id, region_code, pricing_model, usd_per_hour, effective_from)
      values ('h100.1x', ${REGION}, 'on_demand', 2.5, '2020-01-01') on conflict do nothing`);
  const config = slurmConfigSchema.parse({
    cluster: cluster.clusterName,
    conf: cluster.confPath,
    spoolDir: cluster.spoolDir,
    regions: { [REGION]: { partition: cluster.partitions.regionA } },
  });
  setRegionProvider(REGION, createSlurmProvider(config));
  const { user, org } = await signUp(
    {},
    {
      name: "Bench",
      email: `bench-slurm-${Date.now()}@example.test`,
      password: "correct horse battery",
      organizationName: "Bench Slurm",
    },
  );
  await getDb().execute(
    sql`insert into quotas (org_id, gpu_model_id, region_code, max_gpus) values (${org.id}, 'h100', ${REGION}, 1000)`,
  );
  const ctx: Ctx = { actor: { kind: "user", userId: user.id, email: user.email, isOperator: false } };
  const worker = systemCtx("provider");
  // Asynchronous: a synchronous squeue would stall the worker passes running beside the poll.
  const squeueState = async (jobName: string) =>
    (
      await execFileAsync("squeue", ["-h", "-n", jobName, "-o", "%T"], {
        env: cluster.env,
        encoding: "utf8",
      })
    ).stdout.trim();
  let n = 0;
  const spec = () => ({
    kind: "container",
    name: `b-${n++}`,
    project: "default",
    region: REGION,
    instanceType: "h100.1x",
    pricingModel: "on_demand",
    image: "pytorch-2.5-cuda12.4",
    command: "sleep",
    args: ["600"],
  });
  // Worker passes run back to back while the condition is polled every POLL_MS, as the baseline polls squeue:
  // checking only between passes would add a whole pass (with its nvidia-smi sampling) to the Slurm figure.
  async function viaForja(until: "slurm" | "forja") {
    const { instance } = await launch(ctx, org.slug, spec());
    let done = false;
    const passes = (async () => {
      while (!done) await reconcileInstances(worker, { now: new Date(), regionCode: REGION });
    })();
    try {
      for (;;) {
        if (until === "slurm" && (await squeueState(`forja-${instance.id}`)) === "RUNNING") break;
        if (until === "forja") {
          const r = await getDb().execute<{ state: string }>(
            sql`select state from instances where id = ${instance.id}`,
          );
          if (r.rows[0]?.state === "running") break;
        }
        await sleep(POLL_MS);
      }
    } finally {
      done = true;
      await passes;
    }
    return instance.id;
  }
  const toClean: string[] = [];
  const directJobs: string[] = [];
  const clean = async () => {
    for (const id of toClean.splice(0)) await terminate(ctx, org.slug, id).catch(() => {});
    await reconcileInstances(worker, { now: new Date(), regionCode: REGION });
  };
  return {
    baseline: "sbatch → RUNNING (squeue)",
    notes: [
      `cluster ${cluster.clusterName}: 2 virtual nodes × 8 H100 GRES, sched_interval=1; one job at a time`,
    ],
    variants: [
      {
        name: "sbatch → RUNNING (squeue)",
        run: async () => {
          const name = `direct-${n++}`;
          const r = spawnSync(
            "sbatch",
            [
              "--parsable",
              "-p",
              cluster.partitions.regionA,
              "--gres=gpu:h100:1",
              "-J",
              name,
              "-o",
              "/dev/null",
              "--wrap",
              "sleep 600",
            ],
            { env: cluster.env, encoding: "utf8" },
          );
          while ((await squeueState(name)) !== "RUNNING") await sleep(POLL_MS);
          directJobs.push(r.stdout.trim());
        },
        after: async () => {
          spawnSync("scancel", directJobs.splice(0), { env: cluster.env });
        },
      },
      {
        name: "launch() → Slurm RUNNING",
        run: async () => toClean.push(await viaForja("slurm")),
        after: clean,
      },
      {
        name: "launch() → Forja state running",
        run: async () => toClean.push(await viaForja("forja")),
        after: clean,
      },
    ],
    teardown: async () => {
      setRegionProvider(REGION, null);
      await cluster.stop();
    },
  };
}
