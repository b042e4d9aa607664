import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";
import type { ProviderInstance } from "@/lib/provisioning";

type Row = {
  id: string;
  org_id: string;
  name: string;
  kind: "notebook" | "container";
  workload: ProviderInstance["workload"];
  region_code: string;
  gpu_model_id: string;
  gpu_count: number;
  slices_per_gpu: number;
  gpu_memory_gib: number;
  tdp_watts: number;
  pricing_model: ProviderInstance["pricingModel"];
  image_id: string;
  node_id: string | null;
  sim_seed: number;
  provider_ref: string | null;
  started_ms: number | null;
  state: string;
  last_sample_ms: number | null;
};

export type LoadedInstance = ProviderInstance & { state: string; lastSampleAt: Date | null };

/** GPU memory of the instance's MIG slice or of the whole board (aliases g: gpu_models, t: instance_types). */
export const GPU_MEMORY_GIB_SQL = sql`coalesce(
    (select (p->>'memoryGib')::int from jsonb_array_elements(g.mig_profiles) p
      where p->>'name' = t.mig_profile limit 1),
    g.memory_gib)`;
/** The board's power limit (alias g: gpu_models). */
export const TDP_WATTS_SQL = sql`coalesce(g.tdp_watts, ${FALLBACK_TDP_WATTS})`;

/**
 * Instances as the provider sees them (GPU memory of the MIG slice or the whole board, power limit), plus the
 * time of the latest stored sample, read newest-first through the (instance, gpu, at) primary key.
 */
export async function loadProviderInstances(exec: Executor, where: SQL): Promise<LoadedInstance[]> {
  const res = await exec.execute<Row>(sql`
    select i.id, i.org_id, i.name, i.kind, i.workload, i.region_code, i.gpu_model_id, i.gpu_count,
      i.slices_per_gpu, i.pricing_model, i.image_id, i.node_id, i.sim_seed, i.provider_ref, i.state,
      ${GPU_MEMORY_GIB_SQL} as gpu_memory_gib, ${TDP_WATTS_SQL} as tdp_watts,
      (extract(epoch from i.started_at) * 1000)::float8 as started_ms,
      (select (extract(epoch from s.at) * 1000)::float8 from metric_samples s
        where s.instance_id = i.id and s.gpu_index = 0 order by s.at desc limit 1) as last_sample_ms
    from instances i
    join gpu_models g on g.id = i.gpu_model_id
    join instance_types t on t.id = i.instance_type_id
    where ${where}`);
  return res.rows.map(toLoaded);
}

function toLoaded(r: Row): LoadedInstance {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    kind: r.kind,
    workload: r.workload,
    regionCode: r.region_code,
    gpuModelId: r.gpu_model_id,
    gpuCount: Number(r.gpu_count),
    slicesPerGpu: Number(r.slices_per_gpu),
    gpuMemoryGib: Number(r.gpu_memory_gib),
    tdpWatts: Number(r.tdp_watts),
    pricingModel: r.pricing_model,
    imageId: r.image_id,
    nodeId: r.node_id,
    simSeed: Number(r.sim_seed),
    providerRef: r.provider_ref,
    startedAt: r.started_ms === null ? null : new Date(Number(r.started_ms)),
    state: r.state,
    lastSampleAt: r.last_sample_ms === null ? null : new Date(Number(r.last_sample_ms)),
  };
}
