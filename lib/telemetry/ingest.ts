import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, nowOf } from "@/lib/core";
import { type Executor, readDb } from "@/lib/db/client";
import { attachConfiguredEngines, type MetricSample, type Provider } from "@/lib/provisioning";
import { defaultProvider } from "./provider";
import { type LoadedInstance, loadProviderInstances } from "./provider-instances";
import { arrayParam } from "./sql-util";

/** A worker that was down does not try to rebuild hours of samples in one tick; charts show the gap. */
export const MAX_CATCH_UP_MS = 15 * 60_000;
/** States in which the workload is up on its node and reports metrics. */
export const METRIC_STATES = ["running", "stopping", "preempting"] as const;
const ROWS_PER_INSERT = 5000;

export type IngestResult = { instances: number; samples: number; inserted: number };

/**
 * The worker's metrics tick: for every instance whose workload is up, asks the provider for the samples since
 * the last stored one (at most MAX_CATCH_UP_MS back) and bulk-inserts them. ON CONFLICT DO NOTHING on the
 * (instance, gpu, at) key makes concurrent or repeated ingests harmless: the provider is deterministic, so a
 * duplicate is the same row.
 */
export async function ingestMetrics(
  ctx: Ctx,
  opts: { now?: Date; provider?: Provider } = {},
): Promise<IngestResult> {
  const now = opts.now ?? nowOf(ctx);
  const exec = readDb(ctx);
  await attachConfiguredEngines();
  const live = await loadProviderInstances(
    exec,
    sql`i.state in ('running', 'stopping', 'preempting') and i.started_at is not null`,
  );
  const samples: Array<{ inst: LoadedInstance; s: MetricSample }> = [];
  // Engines asked over the network (a DCGM exporter) answer for all their instances at once.
  const remote = new Map<Provider, LoadedInstance[]>();
  for (const inst of live) {
    const provider = opts.provider ?? defaultProvider(inst.regionCode);
    if (provider.fetchSamples) {
      remote.set(provider, [...(remote.get(provider) ?? []), inst]);
      continue;
    }
    const floor = now.getTime() - MAX_CATCH_UP_MS;
    const since = Math.max(
      floor,
      inst.lastSampleAt?.getTime() ?? floor,
      (inst.startedAt as Date).getTime() - 1,
    );
    for (const s of provider.samples(inst, new Date(since), now)) samples.push({ inst, s });
  }
  for (const [provider, insts] of remote) {
    const got = await (provider.fetchSamples as NonNullable<Provider["fetchSamples"]>)(insts, now);
    for (const inst of insts) for (const s of got.get(inst.id) ?? []) samples.push({ inst, s });
  }
  let inserted = 0;
  for (let k = 0; k < samples.length; k += ROWS_PER_INSERT) {
    inserted += await insertSamples(exec, samples.slice(k, k + ROWS_PER_INSERT));
  }
  return { instances: live.length, samples: samples.length, inserted };
}

/** One multi-row insert through unnest: one round trip and one plan for thousands of rows. */
export async function insertSamples(
  exec: Executor,
  rows: Array<{ inst: { id: string; orgId: string }; s: MetricSample }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const res = await exec.execute(sql`
    insert into metric_samples
      (instance_id, gpu_index, at, org_id, utilization_pct, memory_used_gib, power_watts, temperature_c)
    select * from unnest(
      ${arrayParam(
        rows.map((r) => r.inst.id),
        "uuid[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.gpuIndex),
        "int2[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.at.toISOString()),
        "timestamptz[]",
      )},
      ${arrayParam(
        rows.map((r) => r.inst.orgId),
        "uuid[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.utilizationPct),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.memoryUsedGib),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.powerWatts),
        "real[]",
      )},
      ${arrayParam(
        rows.map((r) => r.s.temperatureC),
        "real[]",
      )})
    on conflict do nothing`);
  return res.rowCount ?? 0;
}
