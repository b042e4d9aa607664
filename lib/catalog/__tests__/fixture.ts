import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { type Executor, getDb } from "@/lib/db/client";
import {
  gpuAllocations,
  gpuModels,
  instanceTypes,
  nodeGpus,
  nodes,
  organizations,
  prices,
  regions,
} from "@/lib/db/schema";

const DAY = 86_400_000;

/**
 * A small catalog under unique ids so tests never see (or disturb) other files' rows: two regions (EU, US),
 * a MIG-capable "big" model and a "small" one without TFLOPS figures. Region A holds one active big node
 * (GPUs 6 and 7 in MIG mode), one DRAINING big node and a small node; region B one big node only.
 */
export async function makeCatalog(exec: Executor = getDb(), now = new Date()) {
  const id = randomUUID().slice(0, 8);
  const A = `${id}-eu-a`;
  const B = `${id}-us-b`;
  const BIG = `${id}-big`;
  const SMALL = `${id}-small`;
  await exec.insert(regions).values([
    {
      code: A,
      name: `A ${id}`,
      city: "Madrid",
      country: "ES",
      jurisdiction: "EU",
      pue: 1.2,
      gridGco2PerKwh: 100,
    },
    {
      code: B,
      name: `B ${id}`,
      city: "Ashburn",
      country: "US",
      jurisdiction: "US",
      pue: 1.3,
      gridGco2PerKwh: 350,
    },
  ]);
  await exec.insert(gpuModels).values([
    {
      id: BIG,
      name: `Big ${id}`,
      vendor: "NVIDIA",
      memoryGib: 80,
      bf16Tflops: 1000,
      memoryBandwidthGbps: 3000,
      tdpWatts: 700,
      migProfiles: [
        { name: "1g.10gb", slices: 1, memoryGib: 10 },
        { name: "3g.40gb", slices: 3, memoryGib: 40 },
        { name: "7g.80gb", slices: 7, memoryGib: 80 },
      ],
    },
    { id: SMALL, name: `Small ${id}`, vendor: "NVIDIA", memoryGib: 24, bf16Tflops: null, migProfiles: [] },
  ]);
  const t = (model: string, suffix: string, gpuCount: number, migProfile: string | null = null) => ({
    id: `${model}.${suffix}`,
    gpuModelId: model,
    gpuCount,
    migProfile,
    vcpus: 8 * gpuCount,
    ramGib: 64 * gpuCount,
    localDiskGib: 500 * gpuCount,
  });
  const types = [
    t(BIG, "1x", 1),
    t(BIG, "2x", 2),
    t(BIG, "8x", 8),
    t(BIG, "mig-1g.10gb", 1, "1g.10gb"),
    t(BIG, "mig-3g.40gb", 1, "3g.40gb"),
    t(SMALL, "1x", 1),
    t(SMALL, "4x", 4),
  ];
  await exec.insert(instanceTypes).values(types);
  // On-demand per GPU: big 2.00 (A) / 2.20 (B), small 0.50 / 0.60; MIG slices by share; spot only for big.
  const perGpu = { [A]: { [BIG]: 2, [SMALL]: 0.5 }, [B]: { [BIG]: 2.2, [SMALL]: 0.6 } };
  const from = new Date(now.getTime() - 90 * DAY);
  const rows: (typeof prices.$inferInsert)[] = [];
  for (const region of [A, B]) {
    for (const it of types) {
      const gpu = perGpu[region]?.[it.gpuModelId] ?? 0;
      const share = it.migProfile ? Number(it.migProfile[0]) / 7 : it.gpuCount;
      const od = Math.round(gpu * share * 100) / 100;
      rows.push({
        instanceTypeId: it.id,
        regionCode: region,
        pricingModel: "on_demand",
        usdPerHour: String(od),
        effectiveFrom: from,
      });
      if (it.gpuModelId === BIG)
        rows.push({
          instanceTypeId: it.id,
          regionCode: region,
          pricingModel: "spot",
          usdPerHour: String(od / 2),
          effectiveFrom: from,
        });
    }
  }
  // History of big.1x in A: 3.00 before the current row, and a cut to 1.80 that starts in 10 days.
  rows.push(
    {
      instanceTypeId: `${BIG}.1x`,
      regionCode: A,
      pricingModel: "on_demand",
      usdPerHour: "3",
      effectiveFrom: new Date(now.getTime() - 180 * DAY),
      effectiveTo: from,
    },
    {
      instanceTypeId: `${BIG}.1x`,
      regionCode: A,
      pricingModel: "on_demand",
      usdPerHour: "1.8",
      effectiveFrom: new Date(now.getTime() + 10 * DAY),
    },
  );
  await exec.insert(prices).values(rows);
  const [bigA1, bigA2, smallA, bigB] = await exec
    .insert(nodes)
    .values([
      { name: `${id}-a-big-1`, regionCode: A, gpuModelId: BIG, gpuCount: 8, vcpus: 64, ramGib: 512 },
      {
        name: `${id}-a-big-2`,
        regionCode: A,
        gpuModelId: BIG,
        gpuCount: 8,
        vcpus: 64,
        ramGib: 512,
        status: "draining" as const,
      },
      { name: `${id}-a-small-1`, regionCode: A, gpuModelId: SMALL, gpuCount: 4, vcpus: 32, ramGib: 256 },
      { name: `${id}-b-big-1`, regionCode: B, gpuModelId: BIG, gpuCount: 8, vcpus: 64, ramGib: 512 },
    ])
    .returning();
  if (!bigA1 || !bigA2 || !smallA || !bigB) throw new Error("node insert");
  const gpus = await exec
    .insert(nodeGpus)
    .values(
      [bigA1, bigA2, smallA, bigB].flatMap((n) =>
        Array.from({ length: n.gpuCount }, (_, i) => ({
          nodeId: n.id,
          gpuIndex: i,
          migEnabled: n === bigA1 && i >= 6,
        })),
      ),
    )
    .returning();
  const gpu = (nodeId: string, index: number) => {
    const g = gpus.find((x) => x.nodeId === nodeId && x.gpuIndex === index);
    if (!g) throw new Error("gpu");
    return g;
  };
  return { id, A, B, BIG, SMALL, nodes: { bigA1, bigA2, smallA, bigB }, gpu, now };
}

export type TestCatalog = Awaited<ReturnType<typeof makeCatalog>>;

/** Hold capacity on a GPU the way the scheduler would (7 slices = whole GPU). */
export async function allocate(
  exec: Executor,
  g: { id: string; nodeId: string },
  slices: number,
  opts: { migProfile?: string; released?: boolean } = {},
) {
  await exec.insert(gpuAllocations).values({
    orgId: randomUUID(),
    instanceId: randomUUID(),
    nodeId: g.nodeId,
    nodeGpuId: g.id,
    slices,
    migProfile: opts.migProfile ?? null,
    releasedAt: opts.released ? new Date() : null,
  });
}

export async function restrictOrg(exec: Executor, orgId: string, jurisdictions: string[]) {
  await exec
    .update(organizations)
    .set({ allowedJurisdictions: jurisdictions })
    .where(eq(organizations.id, orgId));
}

export function clockAt(ctx: Ctx, now: Date): Ctx {
  return { ...ctx, now: () => now };
}
