import { sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { reconcileInstances, setRegionProvider } from "@/lib/provisioning";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createSlurmProvider, type SlurmConfig, slurmConfigSchema } from "@/lib/provisioning/providers/slurm";
import { startTestCluster, type TestCluster } from "@/test/slurm/cluster";

/** The wall clock: these tests run against a real cluster, whose time is the host's. */
export const realClock = () => ({ now: () => new Date(), advance: () => {}, set: () => {} });

export type SlurmWorld = {
  cluster: TestCluster;
  regionA: string;
  regionB: string;
  config: SlurmConfig;
  /** One worker pass over the Slurm regions (what the worker's reconcile task runs every 2 s). */
  pass: () => Promise<Awaited<ReturnType<typeof reconcileInstances>>>;
  stop: () => Promise<void>;
};

/** A real cluster (test/slurm/cluster.ts) attached to two fresh regions: A (H100, with spot) and B (A100 MIG). */
export async function startSlurmWorld(): Promise<SlurmWorld> {
  const cluster = await startTestCluster();
  const a = await newFleet([], { models: ["h100"] });
  const b = await newFleet([], { models: ["a100-80gb"] });
  const config = slurmConfigSchema.parse({
    cluster: cluster.clusterName,
    conf: cluster.confPath,
    spoolDir: cluster.spoolDir,
    regions: {
      [a.region]: { partition: cluster.partitions.regionA, spotPartition: cluster.partitions.regionASpot },
      [b.region]: { partition: cluster.partitions.regionB },
    },
    gpuTypes: { a100: "a100-80gb" },
    metricsPath: cluster.standInBin,
  });
  const provider = createSlurmProvider(config);
  setRegionProvider(a.region, provider);
  setRegionProvider(b.region, provider);
  const ctx = systemCtx("provider");
  return {
    cluster,
    regionA: a.region,
    regionB: b.region,
    config,
    // Scoped to this world's regions: a global pass with the real clock would move other suites' instances
    // (vitest files share one database), e.g. stop a back-filled history's instances in 2026.
    pass: async () => {
      const now = new Date();
      await reconcileInstances(ctx, { now, regionCode: a.region });
      return reconcileInstances(ctx, { now, regionCode: b.region });
    },
    stop: async () => {
      setRegionProvider(a.region, null);
      setRegionProvider(b.region, null);
      await cluster.stop();
    },
  };
}

/** Run worker passes until `check` holds (every 300 ms), or fail saying what was awaited. */
export async function until<T>(
  world: SlurmWorld,
  what: string,
  check: () => Promise<T | null | undefined | false>,
  // Generous: on 2 shared cores under load a pass can take seconds; an unloaded run needs a few seconds.
  timeoutMs = 90_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await world.pass();
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function stateOf(id: string) {
  const r = await getDb().execute<{
    state: string;
    state_reason: string | null;
    provider_ref: string | null;
  }>(sql`select state, state_reason, provider_ref from instances where id = ${id}`);
  return r.rows[0] ?? { state: "missing", state_reason: null, provider_ref: null };
}

/** squeue's view of one job: state and reason. */
export function jobOf(world: SlurmWorld, jobId: string) {
  const line = world.cluster
    .cmd("squeue", ["-h", "-t", "all", "-j", jobId, "-o", "%T|%r|%b|%N"])
    .trim()
    .split("\n")[0];
  const [state, reason, gres, node] = (line ?? "").split("|");
  return { state, reason, gres, node };
}

export async function orgWithQuota(world: SlurmWorld, label: string, gpus = 64) {
  const org = await newOrg(label, realClock() as never);
  await getDb().execute(sql`
    insert into quotas (org_id, gpu_model_id, region_code, max_gpus)
    values (${org.org.id}, 'h100', ${world.regionA}, ${gpus}), (${org.org.id}, 'a100-80gb', ${world.regionB}, ${gpus})`);
  return org;
}
