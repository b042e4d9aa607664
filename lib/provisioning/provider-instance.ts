import "server-only";
import type { Executor } from "@/lib/db/client";
import { FALLBACK_TDP_WATTS } from "@/lib/db/schema";
import { loadAllOfferings, loadOffering, type Offering } from "./offerings";
import type { ProviderInstance } from "./providers";
import type { Instance } from "./types";

export type InstanceFields = Pick<
  Instance,
  | "id"
  | "orgId"
  | "name"
  | "kind"
  | "workload"
  | "regionCode"
  | "gpuModelId"
  | "gpuCount"
  | "slicesPerGpu"
  | "pricingModel"
  | "imageId"
  | "nodeId"
  | "simSeed"
  | "startedAt"
  | "instanceTypeId"
> & { providerRef?: string | null };

/** What the provider is told about an instance (it never sees tenant data beyond this). */
export function toProviderInstance(inst: InstanceFields, offering: Offering | undefined): ProviderInstance {
  return {
    id: inst.id,
    orgId: inst.orgId,
    name: inst.name,
    kind: inst.kind,
    workload: inst.workload,
    regionCode: inst.regionCode,
    gpuModelId: inst.gpuModelId,
    gpuCount: inst.gpuCount,
    slicesPerGpu: inst.slicesPerGpu,
    gpuMemoryGib: offering?.gpuMemoryGib ?? 0,
    tdpWatts: offering?.tdpWatts ?? FALLBACK_TDP_WATTS,
    pricingModel: inst.pricingModel,
    imageId: inst.imageId,
    nodeId: inst.nodeId,
    simSeed: inst.simSeed,
    startedAt: inst.startedAt,
    providerRef: inst.providerRef ?? null,
  };
}

export async function providerInstanceOf(exec: Executor, inst: InstanceFields): Promise<ProviderInstance> {
  return toProviderInstance(inst, (await loadOffering(exec, inst.instanceTypeId)) ?? undefined);
}

/** For batch work (scheduler, reconciler): every offering once, then a lookup per instance. */
export async function providerInstanceMapper(exec: Executor) {
  const byType = new Map((await loadAllOfferings(exec)).map((o) => [o.instanceTypeId, o]));
  return (inst: InstanceFields) => toProviderInstance(inst, byType.get(inst.instanceTypeId));
}
