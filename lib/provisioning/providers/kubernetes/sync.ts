import "server-only";
import type { V1Pod } from "@kubernetes/client-node";
import { sql } from "drizzle-orm";
import { type Ctx, nowOf, systemCtx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { type EventReason, why } from "../../event-reasons";
import { applyTransitions, type Transition } from "../../lifecycle";
import { applyWorkload, deleteWorkload, readNotebookToken } from "./apply";
import { call, KubeApiError } from "./client";
import { replicaConnection, replicaPodIndex, replicaPodOf } from "./deployments";
import { discoverNode } from "./discovery";
import { collectGarbage } from "./gc";
import { namespaceFor, objectNames } from "./names";
import { type ClusterQueueReason, observeDeletedPod, observePod } from "./pod-state";
import { loadRegionInstances, type RegionInstance, syncDiscoveredNodes } from "./records";
import { applyReplica, collectReplicaDeployments, deleteReplica, loadReplicaServices } from "./replica-sync";
import { ensureWatch, type RegionRuntime } from "./runtime";

export type SyncResult = {
  nodes: number;
  created: number;
  moved: number;
  errors: string[];
  collected: number;
};

/**
 * One pass for a region on Kubernetes, level-triggered: Forja's records and the cluster's pods (from the watch)
 * are compared and each instance is moved to what its pod says, or its pod is created/deleted to match what
 * the instance should be. A pass after a worker restart sees the same two sides, so nothing is missed.
 */
export async function syncKubernetesRegion(
  ctx: Ctx,
  rt: RegionRuntime,
  opts: { backoffMinMs?: number } = {},
): Promise<SyncResult> {
  const { cfg, api } = rt;
  const now = nowOf(ctx);
  const db = readDb(ctx);
  const c: Ctx = { ...systemCtx("provider"), now: () => now };
  const result: SyncResult = { nodes: 0, created: 0, moved: 0, errors: [], collected: 0 };
  const nodeList = await call("list nodes", () => api.listNode({}));
  const found = nodeList.items.map((n) => discoverNode(cfg, n));
  const nodeIds = await syncDiscoveredNodes(db, cfg, found);
  result.nodes = nodeIds.size;
  const products = (modelId: string) => [
    ...new Set([
      ...Object.entries(cfg.productModels)
        .filter(([, m]) => m === modelId)
        .map(([p]) => p),
      ...found.filter((n) => n.modelId === modelId && n.product).map((n) => n.product as string),
    ]),
  ];
  const watch = ensureWatch(rt, opts);
  await watch.whenSynced();
  // Pods deleted before this mark are forgotten when the pass ends; later ones are kept for the next pass too.
  const mark = watch.passStarted();
  const insts = await loadRegionInstances(db, cfg.region, products);
  // Per instance, the transitions it goes through in this pass, in order (queued → provisioning → running).
  const chains = new Map<string, Transition[]>();
  // A queued instance's reason: the scheduler's, as a catalog code the console words in the reader's language
  // (queue_reason), or an API error in the operator's words (state_reason). One of the two, never both.
  const reasons: Array<{ id: string; reason: string | null; queueReason: ClusterQueueReason | null }> = [];
  const move: Move = (i, to, reason, patch = {}) => {
    const chain = chains.get(i.instanceId) ?? [];
    const from = chain.at(-1)?.to ?? i.state;
    chain.push({ id: i.instanceId, orgId: i.orgId, from, to, reason, patch, at: now });
    chains.set(i.instanceId, chain);
  };

  // Service replicas run as a Deployment each (deployments.ts): their pods are found by label, not by name.
  const replicaOf = await loadReplicaServices(
    db,
    insts.map((i) => i.instanceId),
  );
  const replicaPods = replicaPodIndex(watch.pods.values());

  for (const i of insts) {
    const ns = namespaceFor(cfg, i.orgSlug, i.projectSlug);
    const names = objectNames(i.instanceId, i.run);
    const svc = replicaOf.get(i.instanceId);
    const replica = svc ? { ...i, service: svc } : null;
    // A replica's pod has the Deployment's generated name: found by label; once running, by the name it ran as.
    const key = replica
      ? replica.service.runningPod
        ? `${ns}/${replica.service.runningPod}`
        : null
      : `${ns}/${names.pod}`;
    const pod: V1Pod | undefined = replica
      ? replicaPodOf(replicaPods, replica)
      : watch.pods.get(key as string);
    const last = pod || !key ? undefined : watch.deletedPod(key);
    const obs = pod ? observePod(pod) : last ? observeDeletedPod(last) : null;
    const removeWorkload = (opts: { keepDisk: boolean }) =>
      replica
        ? deleteReplica(rt, replica, replicaPods.get(`${i.instanceId}@${i.run}`) ?? [], opts)
        : deleteWorkload(api, cfg, i, opts);
    try {
      if (i.state === "stopping" || i.state === "terminating" || i.state === "preempting") {
        const keepDisk = i.state !== "terminating";
        if (pod) {
          rt.deleting.add(i.instanceId);
          await removeWorkload({ keepDisk });
          continue;
        }
        if (!keepDisk) await removeWorkload({ keepDisk });
        rt.deleting.delete(i.instanceId);
        const to =
          i.state === "stopping" ? "stopped" : i.state === "terminating" ? "terminated" : "preempted";
        move(
          i,
          to,
          why(
            to === "stopped"
              ? "pod_deleted_disk_kept"
              : to === "terminated"
                ? "pod_and_disk_deleted"
                : "preempted",
          ),
          {
            stoppedAt: now,
            stateDeadline: null,
            connection: null,
          },
        );
        if (to === "preempted" && i.autoRecover) requeue(i, move, now);
        continue;
      }
      if (!obs) {
        if (i.state === "queued") {
          if (replica) await applyReplica(rt, replica);
          else await applyWorkload(api, cfg, i, rt.namespaces);
          result.created++;
          if (i.stateReason)
            reasons.push({
              id: i.instanceId,
              reason: null,
              queueReason: { code: "cluster_waiting", params: {} },
            });
        } else if (i.state === "running") {
          // The pod went away without Forja deleting it: its node was removed (spot reclaim, scale-down).
          preempt(i, why("pod_removed_node_gone"), move, now);
        } else if (i.state === "provisioning") {
          const gone = why("pod_disappeared_starting");
          move(i, "failed", gone, {
            stateReason: gone.text,
            stateDeadline: null,
          });
        }
        continue;
      }
      const nodeId = "nodeName" in obs ? (nodeIds.get(obs.nodeName) ?? null) : null;
      switch (obs.kind) {
        case "unscheduled":
          if (i.state === "queued" && !sameReason(i.queueReason, obs.queueReason))
            reasons.push({ id: i.instanceId, reason: null, queueReason: obs.queueReason });
          break;
        case "scheduled":
          if (i.state === "queued")
            move(i, "provisioning", why("placed_by_cluster", { node: obs.nodeName }), {
              nodeId,
              stateReason: null,
              queueReason: null,
              stateDeadline: null,
            });
          break;
        case "running": {
          if (i.state !== "queued" && i.state !== "provisioning") break;
          const connection =
            replica && pod ? replicaConnection(cfg, replica, pod) : await connectionOf(rt, i);
          if (i.state === "queued")
            move(i, "provisioning", why("placed_by_cluster", { node: obs.nodeName }), {
              nodeId,
              stateReason: null,
              queueReason: null,
            });
          move(i, "running", why("workload_up"), {
            nodeId,
            // The container's own start (billing and logs begin there), never later than now.
            startedAt: obs.startedAt && obs.startedAt < now ? obs.startedAt : now,
            connection,
            stateDeadline: null,
            stateReason: null,
          });
          break;
        }
        case "failed":
          rt.deleting.add(i.instanceId);
          await removeWorkload({ keepDisk: false });
          if (i.state === "queued") move(i, "provisioning", why("placed_by_cluster_unknown"));
          move(i, "failed", obs.reason, {
            stateReason: obs.reason.text,
            stateDeadline: null,
            connection: null,
          });
          break;
        case "succeeded":
          rt.deleting.add(i.instanceId);
          await removeWorkload({ keepDisk: true });
          // A short command may finish between two passes: it still ran, so it goes through running.
          if (i.state === "queued") move(i, "provisioning", why("placed_by_cluster_unknown"), { nodeId });
          if (i.state === "queued" || i.state === "provisioning") {
            move(i, "running", why("workload_up"), { startedAt: now, stateReason: null });
          }
          if (i.state === "queued" || i.state === "provisioning" || i.state === "running") {
            move(i, "stopping", why("command_finished"));
            move(i, "stopped", why("command_succeeded"), { stoppedAt: now, connection: null });
          }
          break;
        case "preempted":
          rt.deleting.add(i.instanceId);
          await removeWorkload({ keepDisk: true });
          if (i.state === "running") preempt(i, obs.reason, move, now);
          else if (i.state === "provisioning")
            move(i, "failed", obs.reason, { stateReason: obs.reason.text });
          break;
        case "deleting":
          break;
      }
    } catch (err) {
      const e = err instanceof KubeApiError ? err : new KubeApiError(0, false, String(err));
      result.errors.push(`${i.instanceId}: ${e.message}`);
      if (e.permanent && i.state === "queued") {
        move(i, "provisioning", why("handed_to_cluster"));
        move(i, "failed", why("cluster_api_error", { detail: e.message }), { stateReason: e.message });
      } else if (i.state === "queued")
        reasons.push({ id: i.instanceId, reason: e.message, queueReason: null });
    }
  }
  await db.transaction(async (tx) => {
    // Round k applies each chain's k-th step, only where the step before it moved.
    let alive = new Set(chains.keys());
    for (let k = 0; alive.size > 0; k++) {
      const step = [...chains]
        .filter(([id, ch]) => alive.has(id) && ch[k])
        .map(([, ch]) => ch[k] as Transition);
      alive = await applyTransitions(tx, c, step);
      result.moved += alive.size;
    }
    for (const r of reasons) {
      await tx.execute(
        sql`update instances set state_reason = ${r.reason},
          queue_reason = ${r.queueReason ? JSON.stringify(r.queueReason) : null}::jsonb
          where id = ${r.id} and state = 'queued'`,
      );
    }
  });
  watch.passEnded(mark);
  result.collected = (await collectReplicaDeployments(db, rt)) + (await collectGarbage(db, rt));
  return result;
}

function sameReason(a: RegionInstance["queueReason"], b: ClusterQueueReason): boolean {
  return a?.code === b.code && JSON.stringify(a.params) === JSON.stringify(b.params);
}

type Move = (
  i: RegionInstance,
  to: Transition["to"],
  reason: EventReason,
  patch?: Transition["patch"],
) => void;

function preempt(i: RegionInstance, reason: EventReason, move: Move, now: Date) {
  move(i, "preempting", reason, { stateReason: reason.text });
  move(i, "preempted", reason, { stoppedAt: now, connection: null, stateDeadline: null });
  if (i.autoRecover) requeue(i, move, now);
}

/** Auto-recover keeps its quota (same transaction); the new queuedAt is a new run, so a new pod. */
function requeue(i: RegionInstance, move: Move, now: Date) {
  move(i, "queued", why("auto_recover"), {
    queuedAt: now,
    nodeId: null,
    stateReason: null,
  });
}

async function connectionOf(rt: RegionRuntime, i: RegionInstance): Promise<Record<string, string>> {
  const ns = namespaceFor(rt.cfg, i.orgSlug, i.projectSlug);
  const names = objectNames(i.instanceId, i.run);
  if (i.kind !== "notebook") {
    return i.exposedPort
      ? { endpoint: `http://${names.service}.${ns}.svc:${i.exposedPort}`, namespace: ns, pod: names.pod }
      : { namespace: ns, pod: names.pod };
  }
  const token = await readNotebookToken(rt.api, rt.cfg, i);
  const url = rt.cfg.notebookUrl
    .replaceAll("{name}", names.service)
    .replaceAll("{namespace}", ns)
    .replaceAll("{token}", token);
  return { url, token, namespace: ns, pod: names.pod };
}
