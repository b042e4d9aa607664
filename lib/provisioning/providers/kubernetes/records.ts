import "server-only";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import {
  gpuModels,
  images,
  instances,
  instanceTypes,
  nodeGpus,
  nodes,
  organizations,
  projects,
} from "@/lib/db/schema";
import type { InstanceState } from "../../states";
import type { KubernetesRegionConfig } from "./config";
import type { DiscoveredNode } from "./discovery";
import type { WorkloadSpec } from "./manifests";
import { runOf } from "./names";

/** States in which an instance may have objects in the cluster; the sync pass looks at these. */
export const LIVE_STATES = [
  "queued",
  "provisioning",
  "running",
  "stopping",
  "terminating",
  "preempting",
] as const;

export type RegionInstance = WorkloadSpec & {
  state: InstanceState;
  nodeId: string | null;
  autoRecover: boolean;
  queuedAt: Date | null;
  stateReason: string | null;
  queueReason: { code: string; params: Record<string, string | number> } | null;
  gpuModelId: string;
  /** What the instance's name says in the console. */
  name: string;
};

/** Forja's records of the region's instances that may own cluster objects, with what their manifests need. */
export async function loadRegionInstances(
  exec: Executor,
  region: string,
  products: (modelId: string) => string[],
  states: readonly InstanceState[] = LIVE_STATES,
  ids?: string[],
): Promise<RegionInstance[]> {
  const rows = await exec
    .select({
      i: instances,
      orgSlug: organizations.slug,
      projectSlug: projects.slug,
      image: images.reference,
      t: instanceTypes,
    })
    .from(instances)
    .innerJoin(organizations, eq(organizations.id, instances.orgId))
    .innerJoin(projects, eq(projects.id, instances.projectId))
    .innerJoin(images, eq(images.id, instances.imageId))
    .innerJoin(instanceTypes, eq(instanceTypes.id, instances.instanceTypeId))
    .where(
      and(
        eq(instances.regionCode, region),
        inArray(instances.state, [...states]),
        ids ? inArray(instances.id, ids) : undefined,
      ),
    );
  return rows.map(({ i, orgSlug, projectSlug, image, t }) => ({
    instanceId: i.id,
    orgId: i.orgId,
    orgSlug,
    projectSlug,
    kind: i.kind,
    name: i.name,
    image,
    command: i.command,
    args: i.args,
    env: i.env,
    exposedPort: i.exposedPort,
    diskGib: i.diskGib,
    gpuCount: i.gpuCount,
    migProfile: t.migProfile,
    gpuProducts: products(i.gpuModelId),
    spot: i.pricingModel === "spot",
    vcpus: t.vcpus,
    ramGib: t.ramGib,
    run: runOf(i.queuedAt),
    state: i.state,
    nodeId: i.nodeId,
    autoRecover: i.autoRecover,
    queuedAt: i.queuedAt,
    stateReason: i.stateReason,
    queueReason: i.queueReason ?? null,
    gpuModelId: i.gpuModelId,
  }));
}

/** Ids of instances of the region that hold nothing in the cluster any more (their leftovers are garbage). */
export async function instanceStates(exec: Executor, ids: string[]): Promise<Map<string, InstanceState>> {
  if (ids.length === 0) return new Map();
  const rows = await exec
    .select({ id: instances.id, state: instances.state })
    .from(instances)
    .where(inArray(instances.id, ids));
  return new Map(rows.map((r) => [r.id, r.state]));
}

export function forjaNodeName(cfg: KubernetesRegionConfig, nodeName: string): string {
  return `${cfg.region}/${nodeName}`;
}

/**
 * Discovery into the fleet tables: one Forja node per GPU node of the cluster (capacity and status as the
 * cluster reports them), GPUs in MIG mode marked; nodes that vanished from the cluster go down. Returns the
 * Forja node id per cluster node name.
 */
export async function syncDiscoveredNodes(
  exec: Executor,
  cfg: KubernetesRegionConfig,
  found: DiscoveredNode[],
): Promise<Map<string, string>> {
  const known = new Set((await exec.select({ id: gpuModels.id }).from(gpuModels)).map((m) => m.id));
  const ids = new Map<string, string>();
  for (const n of found) {
    if (!n.modelId || !known.has(n.modelId)) continue;
    const name = forjaNodeName(cfg, n.name);
    const [row] = await exec
      .insert(nodes)
      .values({
        name,
        regionCode: cfg.region,
        gpuModelId: n.modelId,
        gpuCount: n.gpuCount,
        vcpus: n.vcpus,
        ramGib: n.ramGib,
        status: n.status,
      })
      .onConflictDoUpdate({
        target: nodes.name,
        set: {
          gpuModelId: n.modelId,
          gpuCount: n.gpuCount,
          vcpus: n.vcpus,
          ramGib: n.ramGib,
          status: n.status,
        },
      })
      .returning({ id: nodes.id });
    if (!row) continue;
    ids.set(n.name, row.id);
    const migGpus = Math.max(0, n.gpuCount - n.wholeAllocatable);
    await exec
      .delete(nodeGpus)
      .where(and(eq(nodeGpus.nodeId, row.id), sql`${nodeGpus.gpuIndex} >= ${n.gpuCount}`));
    for (let g = 0; g < n.gpuCount; g++) {
      const migEnabled = g >= n.gpuCount - migGpus;
      await exec
        .insert(nodeGpus)
        .values({ nodeId: row.id, gpuIndex: g, migEnabled })
        .onConflictDoUpdate({ target: [nodeGpus.nodeId, nodeGpus.gpuIndex], set: { migEnabled } });
    }
  }
  const seen = [...ids.keys()].map((n) => forjaNodeName(cfg, n));
  const gone = await exec
    .select({ id: nodes.id, name: nodes.name })
    .from(nodes)
    .where(and(eq(nodes.regionCode, cfg.region), like(nodes.name, `${cfg.region}/%`)));
  for (const g of gone)
    if (!seen.includes(g.name)) await exec.update(nodes).set({ status: "down" }).where(eq(nodes.id, g.id));
  return ids;
}
