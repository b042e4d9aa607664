import { randomUUID } from "node:crypto";
import type { Executor } from "@/lib/db/client";
import { gpuModels, instanceTypes, nodeGpus, nodes, prices, regions } from "@/lib/db/schema";

const JURISDICTIONS = ["EU", "US", "UK", "APAC"];
const COUNTS = [1, 2, 4, 8];

export type SyntheticSize = {
  regions: number;
  models: number;
  typesPerModel: number;
  nodesPerRegionModel: number;
};

/**
 * The plan of a large synthetic catalog under a unique prefix (for the scale test and the benchmark):
 * regions cycle through EU/US/UK/APAC, model m has 16·(m+1) GiB and 100·(m+1) TFLOPS (the last has none),
 * type j has COUNTS[j % 4] GPUs, prices are deterministic. Callers compute expected results from the plan.
 */
export function syntheticPlan(size: SyntheticSize, prefix = `s${randomUUID().slice(0, 6)}`) {
  const regionRows = Array.from({ length: size.regions }, (_, r) => ({
    code: `${prefix}-r${String(r).padStart(2, "0")}`,
    name: `Synthetic ${r}`,
    city: "Nowhere",
    country: "ZZ",
    jurisdiction: JURISDICTIONS[r % JURISDICTIONS.length] as string,
    pue: 1.2,
    gridGco2PerKwh: 200,
  }));
  const models = Array.from({ length: size.models }, (_, m) => ({
    id: `${prefix}-m${m}`,
    name: `Model ${m}`,
    vendor: "NVIDIA",
    memoryGib: 16 * (m + 1),
    bf16Tflops: m === size.models - 1 ? null : 100 * (m + 1),
  }));
  const types = models.flatMap((m, mi) =>
    Array.from({ length: size.typesPerModel }, (_, j) => ({
      id: `${m.id}.t${j}`,
      gpuModelId: m.id,
      gpuCount: COUNTS[j % COUNTS.length] as number,
      vcpus: 8,
      ramGib: 64,
      localDiskGib: 100,
      perGpu: 0.5 * (mi + 1) + j / 100,
    })),
  );
  const offerings = regionRows.flatMap((r, ri) =>
    types.map((t) => ({ t, r, usd: Math.round(t.perGpu * t.gpuCount * (1 + ri / 100) * 10000) / 10000 })),
  );
  return { prefix, size, regionRows, models, types, offerings };
}

export type SyntheticPlan = ReturnType<typeof syntheticPlan>;

/** Insert a plan: on-demand prices in force since `from`, and 8-GPU active nodes per region × model. */
export async function insertSynthetic(exec: Executor, plan: SyntheticPlan, from: Date): Promise<void> {
  await exec.insert(regions).values(plan.regionRows);
  await exec.insert(gpuModels).values(plan.models);
  await exec.insert(instanceTypes).values(plan.types.map(({ perGpu: _p, ...t }) => t));
  const rows = plan.offerings.map((o) => ({
    instanceTypeId: o.t.id,
    regionCode: o.r.code,
    pricingModel: "on_demand" as const,
    usdPerHour: o.usd.toFixed(4),
    effectiveFrom: from,
  }));
  // pg caps a statement at 65,535 parameters; stay well below it.
  for (let i = 0; i < rows.length; i += 5000) await exec.insert(prices).values(rows.slice(i, i + 5000));
  if (!plan.size.nodesPerRegionModel) return;
  const nodeRows = plan.regionRows.flatMap((r) =>
    plan.models.flatMap((m) =>
      Array.from({ length: plan.size.nodesPerRegionModel }, (_, k) => ({
        name: `${r.code}-${m.id}-${k}`,
        regionCode: r.code,
        gpuModelId: m.id,
        gpuCount: 8,
        vcpus: 64,
        ramGib: 512,
      })),
    ),
  );
  const inserted = await exec.insert(nodes).values(nodeRows).returning({ id: nodes.id });
  const gpuRows = inserted.flatMap((n) =>
    Array.from({ length: 8 }, (_, i) => ({ nodeId: n.id, gpuIndex: i })),
  );
  for (let i = 0; i < gpuRows.length; i += 5000)
    await exec.insert(nodeGpus).values(gpuRows.slice(i, i + 5000));
}
