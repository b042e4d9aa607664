import "server-only";
import type { V1Pod } from "@kubernetes/client-node";
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { call, KubeApiError } from "./client";
import {
  appsApi,
  buildReplicaDeployment,
  deploymentName,
  type ReplicaService,
  type ReplicaWorkload,
} from "./deployments";
import { buildManifests, type WorkloadSpec } from "./manifests";
import { LABEL, managedSelector, namespaceFor, runOf } from "./names";
import { LIVE_STATES } from "./records";
import type { RegionRuntime } from "./runtime";

/**
 * The service of each instance that is a service replica (service_replicas), with its readiness probe and the
 * pod its instance went running on. Instances that are not replicas are absent.
 */
export async function loadReplicaServices(
  exec: Executor,
  instanceIds: string[],
): Promise<Map<string, ReplicaService>> {
  if (instanceIds.length === 0) return new Map();
  const res = await exec.execute<{
    instance_id: string;
    service_id: string;
    name: string;
    readiness: ReplicaService["readiness"] | null;
    pod: string | null;
  }>(sql`
    select r.instance_id, s.id as service_id, s.name, s.spec->'readiness' as readiness,
           i.connection->>'pod' as pod
    from service_replicas r
    join services s on s.id = r.service_id
    join instances i on i.id = r.instance_id
    where r.instance_id in (${sql.join(
      instanceIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return new Map(
    res.rows.map((r) => [
      r.instance_id,
      {
        serviceId: r.service_id,
        serviceName: r.name,
        readiness: r.readiness ?? { path: "/health", intervalSeconds: 2, timeoutSeconds: 1 },
        runningPod: r.pod,
      },
    ]),
  );
}

async function ensure(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await call(what, fn);
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 409) return;
    throw err;
  }
}

async function remove(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await call(what, fn);
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 404) return;
    throw err;
  }
}

/** A replica's objects: its namespace (if new), its disk (if any), then its Deployment. No Service object. */
export async function applyReplica(rt: RegionRuntime, w: ReplicaWorkload): Promise<void> {
  const deployment = buildReplicaDeployment(rt.cfg, w);
  const m = buildManifests(rt.cfg, w);
  const ns = m.namespace.metadata?.name as string;
  if (!rt.namespaces.has(ns)) {
    try {
      await call("read the namespace", () => rt.api.readNamespace({ name: ns }));
    } catch (err) {
      if (!(err instanceof KubeApiError && err.code === 404)) throw err;
      await ensure("create the namespace", () => rt.api.createNamespace({ body: m.namespace as never }));
    }
    rt.namespaces.add(ns);
  }
  if (m.pvc) {
    const pvc = m.pvc;
    await ensure("create the disk (PVC)", () =>
      rt.api.createNamespacedPersistentVolumeClaim({ namespace: ns, body: pvc as never }),
    );
  }
  await ensure("create the replica's deployment", () =>
    appsApi(rt).createNamespacedDeployment({ namespace: ns, body: deployment as never }),
  );
}

/**
 * A replica goes: its Deployment (background propagation: the cluster's garbage collector deletes its pods),
 * and its pods now (so the pass sees them go without waiting for the collector), and its disk unless kept.
 */
export async function deleteReplica(
  rt: RegionRuntime,
  w: WorkloadSpec,
  pods: V1Pod[],
  opts: { keepDisk: boolean },
): Promise<void> {
  const ns = namespaceFor(rt.cfg, w.orgSlug, w.projectSlug);
  await remove("delete the replica's deployment", () =>
    appsApi(rt).deleteNamespacedDeployment({
      name: deploymentName(w.instanceId),
      namespace: ns,
      propagationPolicy: "Background",
    }),
  );
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp || !p.metadata?.name) continue;
    const name = p.metadata.name;
    await remove("delete the pod", () => rt.api.deleteNamespacedPod({ name, namespace: ns }));
  }
  if (!opts.keepDisk) {
    const pvc = buildManifests(rt.cfg, w).pvc?.metadata?.name;
    if (pvc)
      await remove("delete the disk (PVC)", () =>
        rt.api.deleteNamespacedPersistentVolumeClaim({ name: pvc, namespace: ns }),
      );
  }
}

const LIVE = new Set<string>(LIVE_STATES);

/**
 * Deployments of replicas whose instance is gone, over, or on another run are deleted (a worker that died
 * between the cluster's write and Forja's commit, a replica preempted while the Deployment would make it a new
 * pod). Every pass: one list call; the pods' own collection (gc.ts) would otherwise fight the Deployment.
 */
export async function collectReplicaDeployments(db: Executor, rt: RegionRuntime): Promise<number> {
  const list = await call("list deployments", () =>
    appsApi(rt).listDeploymentForAllNamespaces({ labelSelector: managedSelector(rt.cfg.region) }),
  );
  const ids = [...new Set(list.items.map((d) => d.metadata?.labels?.[LABEL.instance] ?? ""))].filter((id) =>
    /^[0-9a-f-]{36}$/.test(id),
  );
  const rows = ids.length
    ? await db
        .select({ id: instances.id, state: instances.state, queuedAt: instances.queuedAt })
        .from(instances)
        .where(inArray(instances.id, ids))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  let n = 0;
  for (const d of list.items) {
    if (d.metadata?.deletionTimestamp) continue;
    const labels = d.metadata?.labels ?? {};
    const inst = byId.get(labels[LABEL.instance] ?? "");
    if (inst && LIVE.has(inst.state) && labels[LABEL.run] === runOf(inst.queuedAt)) continue;
    const name = d.metadata?.name ?? "";
    const namespace = d.metadata?.namespace ?? "";
    await remove("delete a leftover deployment", () =>
      appsApi(rt).deleteNamespacedDeployment({ name, namespace, propagationPolicy: "Background" }),
    );
    n++;
  }
  return n;
}
