import { AppsV1Api, type V1Pod } from "@kubernetes/client-node";
import { Deployment } from "kubernetes-models/apps/v1";
import type { KubernetesRegionConfig } from "./config";
import { buildManifests, type WorkloadSpec } from "./manifests";
import { LABEL, namespaceFor, objectNames } from "./names";

/**
 * Service replicas on Kubernetes (ADR 0012): each replica instance is one Deployment (replicas: 1) whose pod
 * template is the instance's pod — the same GPU request (nvidia.com/gpu or the MIG resource), node affinity,
 * tolerations and security context — plus the service's readiness probe and labels naming the service.
 * One Deployment per replica, not one per service scaled to the desired count, because a replica is an
 * instance: admitted on its own by launch (quota, budget, residency), metered from its own pod's start to its
 * own end, and removed by Forja choosing which one goes — a shared ReplicaSet would pick the pod to delete
 * itself and start pods Forja never admitted.
 */

/** Labels a replica's Deployment and pods carry besides the instance's. */
export const SERVICE_LABEL = {
  service: "forja.dev/service",
  serviceName: "forja.dev/service-name",
} as const;

/** What a replica's manifests need from its service (loaded with the instance). */
export type ReplicaService = {
  serviceId: string;
  serviceName: string;
  readiness: { path: string; intervalSeconds: number; timeoutSeconds: number };
  /** The pod the instance went running on (its connection's `pod`): another pod of the Deployment is not it. */
  runningPod: string | null;
};

export type ReplicaWorkload = WorkloadSpec & { service: ReplicaService };

export function deploymentName(instanceId: string): string {
  // The instance's Service name (forja-<12 hex>): pods are <name>-<template hash>-<5>, so the metrics mapping
  // by the prefix forja-<12 hex>- still finds them.
  return objectNames(instanceId, "").service;
}

/**
 * The replica's Deployment, validated against the Kubernetes schemas. The pod template is buildManifests' pod
 * (one source for GPU requests, affinity, tolerations, security context and volumes) with restartPolicy Always
 * (the only one a Deployment allows: the kubelet restarts a crashed server; a crash loop fails the instance),
 * the service's readiness probe on the container's port, and the selector on instance + run, so a requeued
 * replica's Deployment is a new one. Strategy Recreate: a GPU pod is never doubled during a rollout.
 */
export function buildReplicaDeployment(cfg: KubernetesRegionConfig, w: ReplicaWorkload): Deployment {
  const m = buildManifests(cfg, w);
  const pod = m.pod;
  const labels = {
    ...(pod.metadata?.labels ?? {}),
    [SERVICE_LABEL.service]: w.service.serviceId,
    [SERVICE_LABEL.serviceName]: w.service.serviceName,
  };
  const spec = pod.spec;
  if (!spec) throw new Error("the pod manifest has no spec");
  const containers = spec.containers.map((c, i) =>
    i === 0 && w.exposedPort
      ? {
          ...c,
          readinessProbe: {
            httpGet: { path: w.service.readiness.path, port: "http" },
            periodSeconds: w.service.readiness.intervalSeconds,
            timeoutSeconds: w.service.readiness.timeoutSeconds,
            failureThreshold: 3,
          },
        }
      : c,
  );
  const d = new Deployment({
    metadata: {
      name: deploymentName(w.instanceId),
      namespace: pod.metadata?.namespace,
      labels,
    },
    spec: {
      replicas: 1,
      revisionHistoryLimit: 0,
      strategy: { type: "Recreate" },
      selector: { matchLabels: { [LABEL.instance]: w.instanceId, [LABEL.run]: w.run } },
      template: {
        metadata: { labels },
        spec: { ...spec, restartPolicy: "Always", containers },
      },
    },
  });
  d.validate();
  return d;
}

const apis = new WeakMap<object, AppsV1Api>();
export function appsApi(rt: { kc: { makeApiClient: (c: typeof AppsV1Api) => AppsV1Api } }): AppsV1Api {
  let a = apis.get(rt);
  if (!a) {
    a = rt.kc.makeApiClient(AppsV1Api);
    apis.set(rt, a);
  }
  return a;
}

const isDeleting = (p: V1Pod) => Boolean(p.metadata?.deletionTimestamp);

/** The pods of each replica run (instance id @ run), from the region's pod watch. */
export function replicaPodIndex(pods: Iterable<V1Pod>): Map<string, V1Pod[]> {
  const out = new Map<string, V1Pod[]>();
  for (const p of pods) {
    const l = p.metadata?.labels ?? {};
    if (!l[SERVICE_LABEL.service] || !l[LABEL.instance]) continue;
    const key = `${l[LABEL.instance]}@${l[LABEL.run] ?? ""}`;
    out.set(key, [...(out.get(key) ?? []), p]);
  }
  return out;
}

/**
 * The pod that stands for a replica instance. Once the instance went running on a pod, only that pod is it: a
 * pod the Deployment made after that one went (its node was reclaimed, it was evicted) is not the instance's —
 * the instance is preempted as any whose pod went, and the Deployment goes with it. Before, the newest pod not
 * being deleted (else one being deleted).
 */
export function replicaPodOf(
  index: Map<string, V1Pod[]>,
  i: { instanceId: string; run: string; state: string; service: ReplicaService },
): V1Pod | undefined {
  const pods = index.get(`${i.instanceId}@${i.run}`) ?? [];
  if (i.state !== "queued" && i.state !== "provisioning" && i.service.runningPod) {
    return pods.find((p) => p.metadata?.name === i.service.runningPod);
  }
  const sorted = [...pods].sort((a, b) =>
    String(b.metadata?.creationTimestamp ?? "").localeCompare(String(a.metadata?.creationTimestamp ?? "")),
  );
  return sorted.find((p) => !isDeleting(p)) ?? sorted[0];
}

/**
 * A ready replica's connection: the pod's own address and the container's port. The gateway balances across
 * replicas itself (least outstanding requests, per-replica readiness), so it must address each pod, not a
 * Service that would balance again; it reaches pod IPs when it runs in the cluster (or on a routed pod network).
 */
export function replicaConnection(
  cfg: KubernetesRegionConfig,
  w: ReplicaWorkload,
  pod: V1Pod,
): Record<string, string> {
  const ns = namespaceFor(cfg, w.orgSlug, w.projectSlug);
  const ip = pod.status?.podIP;
  return {
    ...(ip && w.exposedPort ? { endpoint: `http://${ip}:${w.exposedPort}` } : {}),
    namespace: ns,
    pod: pod.metadata?.name ?? "",
    deployment: deploymentName(w.instanceId),
  };
}
