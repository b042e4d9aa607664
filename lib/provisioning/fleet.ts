import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { type Tx, withReadCommittedTx } from "@/lib/db/client";
import { instances, nodes } from "@/lib/db/schema";
import { why } from "./event-reasons";
import { applyTransitions } from "./lifecycle";
import { nodeActionSchema } from "./node-admin";
import { getProvider } from "./providers";
import { lockRegionPlacement, SPOT_NOTICE_MS } from "./scheduler";
import { CAPACITY_STATES, type InstanceState, requeuesAfterPreemption } from "./states";

type NodeStatus = "active" | "draining" | "down";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function setNodeStatus(ctx: Ctx, nodeId: string, status: NodeStatus, raw: unknown) {
  requireOperator(ctx);
  const { reason: operatorReason } = parseInput(nodeActionSchema, raw ?? {});
  const now = nowOf(ctx);
  if (!UUID.test(nodeId)) throw new NotFoundError("Node");
  return withReadCommittedTx(ctx.tx, async (tx) => {
    const [node] = await tx.select().from(nodes).where(eq(nodes.id, nodeId));
    if (!node) throw new NotFoundError("Node");
    // The scheduler must not place on a node in the middle of going down.
    await lockRegionPlacement(tx, node.regionCode);
    // The instances holding GPUs here are locked before the node row changes: changing the node rewrites
    // its node_capacity row (a trigger), which a user's stop of one of them also rewrites when it releases
    // its GPUs — taking the instance first in both, the two wait for each other instead of deadlocking.
    // What they become below is decided on these locked rows (no second read of the same rows).
    const held: HeldInstance[] = await tx
      .select({
        id: instances.id,
        orgId: instances.orgId,
        state: instances.state,
        autoRecover: instances.autoRecover,
        preemptedFor: instances.preemptedFor,
      })
      .from(instances)
      .where(and(eq(instances.nodeId, nodeId), inArray(instances.state, [...CAPACITY_STATES])))
      .orderBy(instances.id)
      .for("update");
    await tx.update(nodes).set({ status }).where(eq(nodes.id, nodeId));
    let failed = 0;
    let noticed = 0;
    const engine = getProvider(node.regionCode).engine;
    if (engine) {
      // The cluster owns the node: tell it (scontrol update); what its jobs become (requeued, NODE_FAIL)
      // reaches Forja through the engine pass, like a change an admin made on the cluster. A refusal by the
      // cluster rolls this back.
      const note = `Forja operator: ${status === "down" ? "failed" : status === "draining" ? "drain" : "resume"}`;
      await engine.setNodeStatus(node.name, status, note);
    } else if (status === "down") {
      failed = await failInstancesOn(tx, { ...ctx, now: () => now }, node, held, now);
    } else if (status === "draining") {
      noticed = await noticeInstancesOn(tx, { ...ctx, now: () => now }, node, held, now);
    }
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: `node.${status === "down" ? "failed" : status === "draining" ? "drained" : "activated"}`,
      targetType: "node",
      targetId: nodeId,
      data: {
        name: node.name,
        from: node.status,
        failedInstances: failed,
        noticedInstances: noticed,
        ...(operatorReason ? { reason: operatorReason } : {}),
      },
      at: now,
    });
    return { nodeId, name: node.name, status, failedInstances: failed, noticedInstances: noticed };
  });
}

/**
 * A node went down: no more placements there, and every instance holding GPUs on it fails (its allocations
 * are released by the transition), except running ones with auto-recover, which are requeued. Operators only.
 */
export function failNode(ctx: Ctx, nodeId: string, input: unknown = {}) {
  return setNodeStatus(ctx, nodeId, "down", input);
}

/**
 * Drain: nothing new is placed there, and its running instances get a notice (stopped when it ends, requeued
 * with auto-recover). Operators only.
 */
export function drainNode(ctx: Ctx, nodeId: string, input: unknown = {}) {
  return setNodeStatus(ctx, nodeId, "draining", input);
}

/**
 * Back in service after a drain or repair. `input` of the three verbs is `{ reason? }`: the operator's
 * words, kept in the audit row.
 */
export function activateNode(ctx: Ctx, nodeId: string, input: unknown = {}) {
  return setNodeStatus(ctx, nodeId, "active", input);
}

type NodeRow = { id: string; name: string };
/** An instance holding GPUs on the node, locked by setNodeStatus before the node row changes. */
type HeldInstance = {
  id: string;
  orgId: string;
  state: InstanceState;
  autoRecover: boolean;
  /** In its notice for its organization's higher-priority work: it stops rather than requeues (reconcile.ts). */
  preemptedFor: string | null;
};
type TxCtx = Pick<Ctx, "actor" | "now">;

/**
 * A node failed: what holds GPUs there fails, except running instances with auto-recover, which go back to
 * the queue (running → preempting → preempted → queued in this transaction, the GPUs released on the way).
 */
async function failInstancesOn(
  tx: Tx,
  ctx: TxCtx,
  node: NodeRow,
  onNode: HeldInstance[],
  now: Date,
): Promise<number> {
  const reason = `Node ${node.name} failed`;
  const recover = onNode.filter(
    (i) => requeuesAfterPreemption(i) && (i.state === "running" || i.state === "preempting"),
  );
  const fail = onNode.filter((i) => !recover.includes(i));
  const moved = await applyTransitions(
    tx,
    ctx,
    fail.map((i) => ({
      id: i.id,
      orgId: i.orgId,
      from: i.state as InstanceState,
      to: "failed" as const,
      reason,
      patch: { stateReason: reason, stateDeadline: null, connection: null },
    })),
  );
  const base = (i: (typeof recover)[number]) => ({ id: i.id, orgId: i.orgId, reason });
  await applyTransitions(
    tx,
    ctx,
    recover
      .filter((i) => i.state === "running")
      .map((i) => ({
        ...base(i),
        from: "running" as const,
        to: "preempting" as const,
        patch: { stateReason: reason },
      })),
  );
  await applyTransitions(
    tx,
    ctx,
    recover.map((i) => ({
      ...base(i),
      from: "preempting" as const,
      to: "preempted" as const,
      patch: { stateDeadline: null, stoppedAt: now, connection: null },
    })),
  );
  await applyTransitions(
    tx,
    ctx,
    recover.map((i) => ({
      ...base(i),
      from: "preempted" as const,
      to: "queued" as const,
      reason: why("auto_recover"),
      patch: { queuedAt: now, nodeId: null, stateReason: reason },
    })),
  );
  return moved.size;
}

/**
 * A node is drained: nothing new is placed there, and its running instances get the same notice as a spot
 * interruption (running → preempting); when it ends the reconciler stops them, and auto-recover requeues
 * them elsewhere.
 */
async function noticeInstancesOn(
  tx: Tx,
  ctx: TxCtx,
  node: NodeRow,
  held: HeldInstance[],
  now: Date,
): Promise<number> {
  const running = held.filter((i) => i.state === "running");
  const reason = why("node_drained", { node: node.name, seconds: Math.round(SPOT_NOTICE_MS / 1000) });
  const moved = await applyTransitions(
    tx,
    ctx,
    running.map((i) => ({
      id: i.id,
      orgId: i.orgId,
      from: "running" as const,
      to: "preempting" as const,
      reason,
      patch: { stateDeadline: new Date(now.getTime() + SPOT_NOTICE_MS), stateReason: reason.text },
    })),
  );
  return moved.size;
}
