import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { withReadCommittedTx } from "@/lib/db/client";
import { instances, nodes } from "@/lib/db/schema";
import { applyTransitions } from "./lifecycle";
import { getProvider } from "./providers";
import { lockRegionPlacement } from "./scheduler";
import { CAPACITY_STATES, type InstanceState } from "./states";

type NodeStatus = "active" | "draining" | "down";

async function setNodeStatus(ctx: Ctx, nodeId: string, status: NodeStatus, now: Date) {
  requireOperator(ctx);
  return withReadCommittedTx(ctx.tx, async (tx) => {
    const [node] = await tx.select().from(nodes).where(eq(nodes.id, nodeId));
    if (!node) throw new NotFoundError("Node");
    // The scheduler must not place on a node in the middle of going down.
    await lockRegionPlacement(tx, node.regionCode);
    await tx.update(nodes).set({ status }).where(eq(nodes.id, nodeId));
    let failed = 0;
    const engine = getProvider(node.regionCode).engine;
    if (engine) {
      // The cluster owns the node: tell it (scontrol update); what its jobs become (requeued, NODE_FAIL)
      // reaches Forja through the engine pass, like a change an admin made on the cluster. A refusal by the
      // cluster rolls this back.
      const why = `Forja operator: ${status === "down" ? "failed" : status === "draining" ? "drain" : "resume"}`;
      await engine.setNodeStatus(node.name, status, why);
    } else if (status === "down") {
      const onNode = await tx
        .select({ id: instances.id, orgId: instances.orgId, state: instances.state })
        .from(instances)
        .where(and(eq(instances.nodeId, nodeId), inArray(instances.state, [...CAPACITY_STATES])))
        .for("update");
      const reason = `Node ${node.name} failed`;
      const moved = await applyTransitions(
        tx,
        { ...ctx, now: () => now },
        onNode.map((i) => ({
          id: i.id,
          orgId: i.orgId,
          from: i.state as InstanceState,
          to: "failed" as const,
          reason,
          patch: { stateReason: reason, stateDeadline: null, connection: null },
        })),
      );
      failed = moved.size;
    }
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: `node.${status === "down" ? "failed" : status === "draining" ? "drained" : "activated"}`,
      targetType: "node",
      targetId: nodeId,
      data: { name: node.name, from: node.status, failedInstances: failed },
      at: now,
    });
    return { nodeId, name: node.name, status, failedInstances: failed };
  });
}

/**
 * A node went down: no more placements there, and every instance holding GPUs on it fails (its allocations
 * are released by the transition). Operators only.
 */
export function failNode(ctx: Ctx, nodeId: string, now: Date = nowOf(ctx)) {
  return setNodeStatus(ctx, nodeId, "down", now);
}

/** Drain: what runs there keeps running, nothing new is placed there. Operators only. */
export function drainNode(ctx: Ctx, nodeId: string, now: Date = nowOf(ctx)) {
  return setNodeStatus(ctx, nodeId, "draining", now);
}

/** Back in service after a drain or repair. */
export function activateNode(ctx: Ctx, nodeId: string, now: Date = nowOf(ctx)) {
  return setNodeStatus(ctx, nodeId, "active", now);
}
