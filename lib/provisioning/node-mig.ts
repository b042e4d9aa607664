import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, InvalidStateError, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { gpuAllocations, gpuModels, nodeGpus, nodes } from "@/lib/db/schema";
import { NODE_FIELD_MESSAGES as M } from "./node-admin";
import { getProvider } from "./providers";
import { lockRegionPlacement } from "./scheduler";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The GPUs (by index) that are to be in MIG mode; every other GPU of the node becomes a whole GPU. */
export const migLayoutSchema = z.object({
  migGpus: z.preprocess(
    (v) =>
      v === undefined || v === null || v === ""
        ? []
        : [v].flat().map((x) => (Number.isNaN(Number(x)) ? -1 : Number(x))),
    z
      // A non-number became -1 above, so the refinement words every bad entry once, on the field itself.
      .array(z.number().meta({ description: "GPU index on the node" }), { error: M.migIndexInvalid })
      .max(16, { error: M.migIndexInvalid })
      .refine((xs) => xs.every((x) => Number.isInteger(x) && x >= 0), { error: M.migIndexInvalid }),
  ),
});

export type MigLayout = { nodeId: string; migGpus: number[] };

/**
 * Operator: change which GPUs of an idle node are in MIG mode (each carved into 7 compute slices that MIG
 * instance types take; the others hold whole-GPU instances). Only a node with nothing on it: a GPU cannot be
 * re-partitioned under a workload, so a live allocation is an InvalidState refusal naming how many instances
 * hold it (drain the node first). Taken under the region's placement lock, so the scheduler never places on
 * a GPU while its mode changes, and places on the new layout from its next pass. A region whose cluster
 * engine (Slurm, Kubernetes) discovers its nodes has its layout set on the cluster.
 */
export async function setNodeMigLayout(
  ctx: Ctx,
  nodeId: string,
  raw: unknown,
  opts: { precondition?: (current: MigLayout) => void } = {},
): Promise<MigLayout> {
  requireOperator(ctx);
  if (!UUID.test(nodeId)) throw new NotFoundError("Node");
  const input = parseInput(migLayoutSchema, raw ?? {});
  const wanted = [...new Set(input.migGpus)].sort((a, b) => a - b);
  return withTx(ctx.tx, async (tx) => {
    const [node] = await tx
      .select({
        id: nodes.id,
        name: nodes.name,
        regionCode: nodes.regionCode,
        gpuCount: nodes.gpuCount,
        migProfiles: gpuModels.migProfiles,
      })
      .from(nodes)
      .innerJoin(gpuModels, eq(gpuModels.id, nodes.gpuModelId))
      .where(eq(nodes.id, nodeId));
    if (!node) throw new NotFoundError("Node");
    if (getProvider(node.regionCode).engine) {
      throw new InvalidStateError("This node's cluster sets its MIG layout: change it there", {
        reason: "node_engine_managed",
      });
    }
    if (wanted.some((i) => i >= node.gpuCount)) throw ValidationError.field("migGpus", M.migIndexInvalid);
    if (wanted.length > 0 && node.migProfiles.length === 0) {
      throw ValidationError.field("migGpus", M.migUnsupported);
    }
    await lockRegionPlacement(tx, node.regionCode);
    // Layouts change under the region's placement lock only, so what is read here is what gets replaced.
    const before = await tx
      .select({ index: nodeGpus.gpuIndex })
      .from(nodeGpus)
      .where(and(eq(nodeGpus.nodeId, nodeId), eq(nodeGpus.migEnabled, true)))
      .orderBy(nodeGpus.gpuIndex);
    opts.precondition?.({ nodeId, migGpus: before.map((b) => b.index) });
    const [busy] = await tx
      .select({ instances: sql<number>`count(distinct ${gpuAllocations.instanceId})::int` })
      .from(gpuAllocations)
      .where(and(eq(gpuAllocations.nodeId, nodeId), isNull(gpuAllocations.releasedAt)));
    if (busy && busy.instances > 0) {
      throw new InvalidStateError(
        `${busy.instances} instance(s) hold GPUs on this node: drain it and wait until it is idle to change its MIG layout`,
        { reason: "node_busy", instances: busy.instances },
      );
    }
    await tx
      .update(nodeGpus)
      .set({ migEnabled: sql`${nodeGpus.gpuIndex} = any(${sql.param(wanted)}::int[])` })
      .where(eq(nodeGpus.nodeId, nodeId));
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "node.mig_layout_changed",
      targetType: "node",
      targetId: nodeId,
      data: { name: node.name, region: node.regionCode, before: before.map((b) => b.index), after: wanted },
      at: nowOf(ctx),
    });
    return { nodeId, migGpus: wanted };
  });
}
