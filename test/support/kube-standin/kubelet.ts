import { randomBytes } from "node:crypto";
import { Pod } from "kubernetes-models/v1";
import { type ModelServer, modelServerDefaults, startModelServer } from "@/lib/services/model-server";
import type { KubeApiStandIn } from "./server";
import type { KObject } from "./store";

export type StandInNode = {
  name: string;
  product: string;
  gpus: number;
  /** MIG profiles advertised under the mixed strategy (then `gpus` counts only the non-MIG GPUs). */
  mig?: Record<string, number>;
  physicalGpus?: number;
  region?: string;
  zone?: string;
  labels?: Record<string, string>;
  taints?: Array<{ key: string; value?: string; effect: string }>;
  ready?: boolean;
  unschedulable?: boolean;
};

type Container = {
  image?: string;
  command?: string[];
  resources?: { limits?: Record<string, string> };
  ports?: Array<{ name?: string; containerPort: number }>;
  readinessProbe?: { httpGet?: { path?: string; port: number | string }; timeoutSeconds?: number };
};
type PodSpec = {
  nodeName?: string;
  restartPolicy?: string;
  containers: Container[];
  tolerations?: Array<{ key?: string; operator?: string }>;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: {
        nodeSelectorTerms: Array<{ matchExpressions: Expr[] }>;
      };
      preferredDuringSchedulingIgnoredDuringExecution?: Array<{
        weight: number;
        preference: { matchExpressions: Expr[] };
      }>;
    };
  };
};
type Expr = { key: string; operator: string; values?: string[] };

/** A node selector requirement, as the scheduler reads it (In, NotIn, Exists, DoesNotExist). */
function matches(e: Expr, labels: Record<string, string>): boolean {
  const v = labels[e.key];
  if (e.operator === "In") return v !== undefined && (e.values ?? []).includes(v);
  if (e.operator === "NotIn") return v === undefined || !(e.values ?? []).includes(v);
  if (e.operator === "Exists") return v !== undefined;
  if (e.operator === "DoesNotExist") return v === undefined;
  throw new Error(`the stand-in's scheduler does not know the operator ${e.operator}`);
}

/** The words of each `echo …` in a `/bin/sh -c` line, quotes removed. */
function echoes(command: string[]): string[] {
  if (command[0] !== "/bin/sh" || command[1] !== "-c") return [];
  return (command[2] ?? "")
    .split(/;|&&/)
    .map((part) => /^\s*echo\s+(.*?)\s*$/.exec(part)?.[1])
    .filter((t): t is string => Boolean(t))
    .map((t) => t.replace(/^(['"])(.*)\1$/, "$2"));
}

function cond(type: string, s: string, reason?: string, message?: string) {
  return {
    type,
    status: s,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
    lastTransitionTime: new Date().toISOString(),
  };
}

/**
 * The scheduler and the kubelets of the stand-in cluster, one tick at a time: pending pods are bound to a node
 * whose free GPU resources, taints and GPU product fit (else PodScheduled=False with the scheduler's message),
 * bound pods start (or fail the way real ones do: an image that is "missing" backs off, a command with
 * `exit N` crashes), deleted pods go away after their grace period (one tick).
 */
export class StandInKubelet {
  /** Image references the registry does not have (besides any with "missing" in them): they back off. */
  readonly missingImages = new Set<string>();
  /**
   * Servers of running pods that serve a port behind an HTTP readiness probe (a service replica): the
   * simulated model server of lib/services, listening on the pod's own loopback address (its podIP, one of
   * 127.77.0.0/16) and containerPort, so a client outside the "cluster" (the gateway) reaches the pod for real.
   */
  private servers = new Map<string, { ip: string; port: number; server: Promise<ModelServer | null> }>();
  private nextIp = 1;
  private probing = new Set<string>();
  /** Cold start of those servers (ms); the model server's /health answers 503 until it ends. */
  serverColdStartMs = Math.min(modelServerDefaults().coldStartMs, 500);
  constructor(private api: KubeApiStandIn) {}

  /** The addresses the stand-in's pod servers listen on, by namespace/pod. */
  podServers(): Map<string, string> {
    return new Map([...this.servers].map(([k, v]) => [k, `http://${v.ip}:${v.port}`]));
  }

  /** Close every pod server (the stand-in is stopping). */
  async closeServers(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map(async (s) => (await s.server)?.close()));
  }

  private closeServer(key: string): void {
    const s = this.servers.get(key);
    if (!s) return;
    this.servers.delete(key);
    void s.server.then((srv) => srv?.kill());
  }

  /**
   * The Deployment controller and garbage collector, simplified: a Deployment's pods are made from its
   * template (named <deployment>-<template hash>-<random>, owned by the Deployment directly — no ReplicaSet
   * object), as many as spec.replicas (default 1) that are not being deleted; extra ones are deleted; pods
   * whose owner is gone are deleted (background propagation); the status counts replicas and ready ones.
   */
  private reconcileDeployments(): void {
    const deployments = this.api.store.list("deployments");
    const uids = new Set(deployments.map((d) => d.metadata.uid));
    for (const p of this.pods()) {
      const owner = p.metadata.ownerReferences?.find((r) => r.controller);
      if (owner && !uids.has(owner.uid) && !p.metadata.deletionTimestamp)
        this.update(p, { metadata: { ...p.metadata, deletionTimestamp: new Date().toISOString() } });
    }
    for (const d of deployments) {
      const spec = d.spec as {
        replicas?: number;
        template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
      };
      const want = spec.replicas ?? 1;
      const owned = this.pods().filter((p) =>
        p.metadata.ownerReferences?.some((r) => r.uid === d.metadata.uid),
      );
      const live = owned.filter((p) => !p.metadata.deletionTimestamp);
      const hash = randomBytes(4).toString("hex").slice(0, 8);
      for (let i = live.length; i < want; i++) {
        const pod = {
          apiVersion: "v1",
          kind: "Pod",
          metadata: {
            name: `${d.metadata.name}-${hash}-${randomBytes(3).toString("hex").slice(0, 5)}`,
            namespace: d.metadata.namespace,
            labels: { ...spec.template.metadata?.labels, "pod-template-hash": hash },
            ownerReferences: [
              {
                apiVersion: "apps/v1",
                kind: "Deployment",
                name: d.metadata.name,
                uid: d.metadata.uid ?? "",
                controller: true,
              },
            ],
          },
          spec: spec.template.spec,
        };
        // The template must make a valid pod (the real controller's create would be refused otherwise).
        try {
          new Pod(pod as never).validate();
        } catch (err) {
          this.api.invalid.push(`deployment ${d.metadata.name} template: ${String(err)}`);
          continue;
        }
        this.api.store.put("pods", {
          ...pod,
          metadata: {
            ...pod.metadata,
            uid: randomBytes(16).toString("hex"),
            creationTimestamp: new Date().toISOString(),
          },
          status: { phase: "Pending", conditions: [] },
        });
      }
      for (const extra of live.slice(want))
        this.update(extra, { metadata: { ...extra.metadata, deletionTimestamp: new Date().toISOString() } });
      const now = this.pods().filter(
        (p) =>
          p.metadata.ownerReferences?.some((r) => r.uid === d.metadata.uid) && !p.metadata.deletionTimestamp,
      );
      const ready = now.filter((p) =>
        ((p.status as { conditions?: Array<{ type: string; status: string }> })?.conditions ?? []).some(
          (c) => c.type === "Ready" && c.status === "True",
        ),
      ).length;
      const status = {
        observedGeneration: d.metadata.generation ?? 1,
        replicas: now.length,
        readyReplicas: ready,
        availableReplicas: ready,
        updatedReplicas: now.length,
      };
      if (JSON.stringify(status) !== JSON.stringify(d.status))
        this.api.store.put("deployments", { ...d, status });
    }
  }

  /** Probe the pod servers' readiness paths as the kubelet would; a pod is Ready once its probe answers 2xx/3xx. */
  private probeServers(): void {
    for (const pod of this.pods()) {
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      const srv = this.servers.get(key);
      const st = pod.status as { phase?: string; conditions?: Array<{ type: string; status: string }> };
      if (!srv || st?.phase !== "Running" || pod.metadata.deletionTimestamp || this.probing.has(key))
        continue;
      if ((st.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True")) continue;
      const c = (pod.spec as PodSpec).containers[0] as Container;
      const probe = c.readinessProbe?.httpGet;
      this.probing.add(key);
      void srv.server
        .then(async (server) => {
          if (!server) return false;
          const r = await fetch(`http://${srv.ip}:${srv.port}${probe?.path ?? "/"}`, {
            signal: AbortSignal.timeout((c.readinessProbe?.timeoutSeconds ?? 1) * 1000),
          });
          await r.arrayBuffer();
          return r.status >= 200 && r.status < 400;
        })
        .catch(() => false)
        .then((ok) => {
          this.probing.delete(key);
          const cur = this.api.store.get("pods", pod.metadata.namespace, pod.metadata.name);
          if (!ok || !cur || cur.metadata.deletionTimestamp || this.servers.get(key) !== srv) return;
          const cs = cur.status as {
            conditions?: Array<{ type: string }>;
            containerStatuses?: Array<object>;
          };
          this.update(cur, {
            status: {
              ...cur.status,
              conditions: [...(cs.conditions ?? []).filter((x) => x.type !== "Ready"), cond("Ready", "True")],
              containerStatuses: (cs.containerStatuses ?? []).map((x) => ({ ...x, ready: true })),
            },
          });
        });
    }
  }

  addNode(n: StandInNode): KObject {
    const allocatable: Record<string, string> = {
      cpu: "128",
      memory: "1056Gi",
      "nvidia.com/gpu": String(n.gpus),
    };
    for (const [p, c] of Object.entries(n.mig ?? {})) allocatable[`nvidia.com/mig-${p}`] = String(c);
    return this.api.store.put("nodes", {
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name: n.name,
        labels: {
          "nvidia.com/gpu.product": n.product,
          "nvidia.com/gpu.count": String(n.physicalGpus ?? n.gpus),
          "nvidia.com/gpu.memory": "81559",
          "nvidia.com/mig.strategy": n.mig ? "mixed" : "none",
          ...(n.region ? { "topology.kubernetes.io/region": n.region } : {}),
          ...(n.zone ? { "topology.kubernetes.io/zone": n.zone } : {}),
          ...n.labels,
        },
      },
      spec: { unschedulable: n.unschedulable ?? false, taints: n.taints ?? [] },
      status: {
        allocatable,
        capacity: allocatable,
        conditions: [cond("Ready", n.ready === false ? "False" : "True", "KubeletReady")],
      },
    });
  }

  private pods(): KObject[] {
    return this.api.store.list("pods");
  }

  private fits(pod: KObject, node: KObject): string | null {
    const spec = pod.spec as PodSpec;
    const nodeSpec = node.spec as {
      unschedulable?: boolean;
      taints?: Array<{ key: string; effect: string }>;
    };
    const conditions = (node.status as { conditions: Array<{ type: string; status: string }> }).conditions;
    if (nodeSpec.unschedulable || conditions.find((c) => c.type === "Ready")?.status !== "True")
      return "node(s) were unschedulable";
    const tolerated = new Set((spec.tolerations ?? []).map((t) => t.key));
    if ((nodeSpec.taints ?? []).some((t) => t.effect === "NoSchedule" && !tolerated.has(t.key)))
      return "node(s) had untolerated taint";
    const terms =
      spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    const labels = node.metadata.labels ?? {};
    if (terms.length > 0 && !terms.some((t) => t.matchExpressions.every((e) => matches(e, labels)))) {
      return "node(s) didn't match Pod's node affinity/selector";
    }
    const alloc = (node.status as { allocatable: Record<string, string> }).allocatable;
    const used: Record<string, number> = {};
    for (const p of this.pods()) {
      if ((p.spec as PodSpec).nodeName !== node.metadata.name || p.metadata.name === pod.metadata.name)
        continue;
      const phase = (p.status as { phase?: string })?.phase;
      if (phase === "Succeeded" || phase === "Failed") continue;
      for (const [k, v] of Object.entries((p.spec as PodSpec).containers[0]?.resources?.limits ?? {})) {
        if (k.startsWith("nvidia.com/")) used[k] = (used[k] ?? 0) + Number(v);
      }
    }
    for (const [k, v] of Object.entries(spec.containers[0]?.resources?.limits ?? {})) {
      if (k.startsWith("nvidia.com/") && Number(alloc[k] ?? 0) - (used[k] ?? 0) < Number(v))
        return `Insufficient ${k}`;
    }
    return null;
  }

  private update(pod: KObject, patch: Partial<KObject>): void {
    this.api.store.put("pods", { ...pod, ...patch });
  }

  tick(): void {
    this.reconcileDeployments();
    const nodes = this.api.store.list("nodes");
    for (const pod of this.pods()) {
      const spec = pod.spec as PodSpec;
      const st = (pod.status ?? {}) as { phase?: string; conditions?: unknown[] };
      const { name, namespace } = pod.metadata;
      if (pod.metadata.deletionTimestamp) {
        this.api.store.remove("pods", namespace, name);
        this.api.endLogs(namespace ?? "", name);
        this.closeServer(`${namespace}/${name}`);
        continue;
      }
      if (st.phase !== "Pending") continue;
      if (!spec.nodeName) {
        const why = nodes.map((n) => this.fits(pod, n));
        // Among the nodes that fit, the one the pod's preferred affinity weighs most (the first on a tie).
        const prefs = spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
        const score = (n: KObject) =>
          prefs
            .filter((p) => p.preference.matchExpressions.every((e) => matches(e, n.metadata.labels ?? {})))
            .reduce((sum, p) => sum + p.weight, 0);
        const node = nodes
          .filter((_, k) => why[k] === null)
          .reduce<KObject | undefined>((best, n) => (!best || score(n) > score(best) ? n : best), undefined);
        if (node) {
          this.update(pod, {
            spec: { ...spec, nodeName: node.metadata.name },
            status: { phase: "Pending", conditions: [cond("PodScheduled", "True")] },
          });
        } else {
          const counts = new Map<string, number>();
          for (const w of why) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
          const detail = [...counts].map(([w, c]) => `${c} ${w}`).join(", ");
          const message = `0/${nodes.length} nodes are available: ${detail || "no nodes"}.`;
          this.update(pod, {
            status: {
              phase: "Pending",
              conditions: [cond("PodScheduled", "False", "Unschedulable", message)],
            },
          });
        }
        continue;
      }
      const c = spec.containers[0] as Container;
      const crash = /exit (\d+)/.exec((c.command ?? []).join(" "));
      const started = { startedAt: new Date().toISOString() };
      if (c.image?.includes("missing") || this.missingImages.has(c.image ?? "")) {
        this.update(pod, {
          status: {
            phase: "Pending",
            conditions: st.conditions,
            containerStatuses: [
              {
                name: "workload",
                ready: false,
                state: {
                  waiting: { reason: "ImagePullBackOff", message: `Back-off pulling image "${c.image}"` },
                },
              },
            ],
          },
        });
      } else if (crash && crash[1] !== "0" && spec.restartPolicy === "Always") {
        this.update(pod, {
          status: {
            phase: "Running",
            conditions: st.conditions,
            containerStatuses: [
              {
                name: "workload",
                ready: false,
                restartCount: 3,
                state: {
                  waiting: {
                    reason: "CrashLoopBackOff",
                    message: "back-off 40s restarting failed container",
                  },
                },
              },
            ],
          },
        });
      } else if (crash) {
        const code = Number(crash[1]);
        this.update(pod, {
          status: {
            phase: code === 0 ? "Succeeded" : "Failed",
            conditions: st.conditions,
            containerStatuses: [
              {
                name: "workload",
                ready: false,
                state: {
                  terminated: { exitCode: code, reason: code === 0 ? "Completed" : "Error", ...started },
                },
              },
            ],
          },
        });
      } else if (c.readinessProbe?.httpGet && c.ports?.[0]) {
        // A server behind a readiness probe: it runs (the model server on the pod's own loopback address)
        // but is Ready only once the probe answers.
        const ip = `127.77.${Math.floor(this.nextIp / 250)}.${(this.nextIp % 250) + 1}`;
        this.nextIp++;
        const port = c.ports[0].containerPort;
        const key = `${namespace}/${name}`;
        this.servers.set(key, {
          ip,
          port,
          server: startModelServer({
            ...modelServerDefaults(),
            coldStartMs: this.serverColdStartMs,
            name,
            host: ip,
            port,
          }).catch((err: unknown) => {
            this.api.appendLog(namespace ?? "", name, `listen ${ip}:${port}: ${String(err)}`);
            return null;
          }),
        });
        this.update(pod, {
          status: {
            phase: "Running",
            podIP: ip,
            podIPs: [{ ip }],
            conditions: [...(st.conditions ?? []), cond("Ready", "False", "ContainersNotReady")],
            containerStatuses: [{ name: "workload", ready: false, state: { running: started } }],
          },
        });
        this.api.appendLog(
          namespace ?? "",
          name,
          `started ${c.image} on ${spec.nodeName}, serving ${ip}:${port}`,
        );
      } else {
        this.update(pod, {
          status: {
            phase: "Running",
            podIP: "10.0.0.7",
            conditions: [...(st.conditions ?? []), cond("Ready", "True")],
            containerStatuses: [{ name: "workload", ready: true, state: { running: started } }],
          },
        });
        this.api.appendLog(namespace ?? "", name, `started ${c.image} on ${spec.nodeName}`);
        // What the command line echoes is its output (the stand-in runs nothing else of it).
        for (const text of echoes(c.command ?? [])) this.api.appendLog(namespace ?? "", name, text);
      }
    }
    // Servers of pods that are gone (removed without a grace period: a reclaimed node) stop too.
    for (const key of this.servers.keys()) {
      const [ns, n] = key.split("/");
      if (!this.api.store.get("pods", ns, n ?? "")) this.closeServer(key);
    }
    this.probeServers();
  }

  /** The kubelet evicts a pod under node pressure: phase Failed, reason Evicted, DisruptionTarget. */
  evict(ns: string, pod: string, message = "The node was low on resource: memory."): void {
    const p = this.api.store.get("pods", ns, pod);
    if (!p) throw new Error(`no pod ${ns}/${pod}`);
    this.update(p, {
      status: {
        ...(p.status ?? {}),
        phase: "Failed",
        reason: "Evicted",
        message,
        conditions: [cond("DisruptionTarget", "True", "TerminationByKubelet", message)],
      },
    });
  }

  /** A spot node is reclaimed: its pods are marked and deleted by the taint manager, the node goes away. */
  reclaimSpotNode(nodeName: string): void {
    for (const p of this.pods().filter((x) => (x.spec as PodSpec).nodeName === nodeName)) {
      this.update(p, {
        status: {
          ...(p.status ?? {}),
          conditions: [
            cond(
              "DisruptionTarget",
              "True",
              "DeletionByTaintManager",
              "Taint manager: deleting due to NoExecute taint",
            ),
          ],
        },
      });
      this.api.store.remove("pods", p.metadata.namespace, p.metadata.name);
    }
    this.api.store.remove("nodes", undefined, nodeName);
  }
}
