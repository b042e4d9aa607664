import type { IEnvVar } from "kubernetes-models/v1";
import { Namespace, PersistentVolumeClaim, Pod, Secret, Service } from "kubernetes-models/v1";
import type { KubernetesRegionConfig } from "./config";
import { LABEL, MANAGER, namespaceFor, objectNames } from "./names";

/** What a workload needs from Forja's records (the sync pass loads it; the console's manifest view too). */
export type WorkloadSpec = {
  instanceId: string;
  orgId: string;
  orgSlug: string;
  projectSlug: string;
  kind: "notebook" | "container";
  image: string;
  command: string | null;
  args: string[] | null;
  env: Record<string, string> | null;
  exposedPort: number | null;
  diskGib: number;
  gpuCount: number;
  /** Set for a MIG slice: the device plugin's mixed strategy exposes nvidia.com/mig-<profile>. */
  migProfile: string | null;
  /** nvidia.com/gpu.product values that carry the instance's GPU model (node affinity). */
  gpuProducts: string[];
  spot: boolean;
  vcpus: number;
  ramGib: number;
  /** The run the pod belongs to (names.runOf). */
  run: string;
};

export const NOTEBOOK_PORT = 8888;
/** Kueue admits a plain pod that carries this label (its pod integration), in the LocalQueue it names. */
export const KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
export const TOKEN_KEY = "token";

export type Manifests = {
  namespace: Namespace;
  secret: Secret | null;
  pvc: PersistentVolumeClaim | null;
  service: Service | null;
  pod: Pod;
};

function image(cfg: KubernetesRegionConfig, ref: string): string {
  return cfg.imageRegistry ? ref.replace(/^forja\//, `${cfg.imageRegistry.replace(/\/$/, "")}/`) : ref;
}

/**
 * Every object one run of an instance needs, validated against the Kubernetes schemas before anything is sent:
 * a manifest the API server would refuse is a bug here, found in tests, not a stuck instance in production.
 */
export function buildManifests(cfg: KubernetesRegionConfig, w: WorkloadSpec): Manifests {
  const ns = namespaceFor(cfg, w.orgSlug, w.projectSlug);
  const names = objectNames(w.instanceId, w.run);
  const base = {
    [LABEL.managedBy]: MANAGER,
    [LABEL.instance]: w.instanceId,
    [LABEL.org]: w.orgId,
    [LABEL.project]: w.projectSlug,
    [LABEL.region]: cfg.region,
    [LABEL.kind]: w.kind,
  };
  const gpuResource = w.migProfile ? `nvidia.com/mig-${w.migProfile}` : "nvidia.com/gpu";
  const gpuQty = w.migProfile ? 1 : w.gpuCount;
  const notebook = w.kind === "notebook";
  const port = notebook ? NOTEBOOK_PORT : w.exposedPort;
  const env: IEnvVar[] = Object.entries(w.env ?? {}).map(([name, value]) => ({ name, value }));
  if (notebook) {
    env.push({
      name: "FORJA_NOTEBOOK_TOKEN",
      valueFrom: { secretKeyRef: { name: names.secret, key: TOKEN_KEY } },
    });
  }
  const tolerations = [
    ...cfg.gpuTaints.map((t) => ({ key: t.key, operator: "Exists" as const, effect: t.effect })),
    ...(w.spot ? cfg.spotTaints.map((key) => ({ key, operator: "Exists" as const })) : []),
  ];
  const affinityTerms = [
    ...(w.gpuProducts.length > 0
      ? [{ key: "nvidia.com/gpu.product", operator: "In" as const, values: w.gpuProducts }]
      : []),
    ...(w.migProfile ? [{ key: "nvidia.com/mig.strategy", operator: "In" as const, values: ["mixed"] }] : []),
    // On-demand and reserved work never lands on spot capacity: a spot node that is only labelled (EKS,
    // Karpenter, GKE without the optional taint) would otherwise take it and reclaim it like spot.
    ...(w.spot
      ? []
      : Object.entries(cfg.spotLabels).map(([key, value]) => ({
          key,
          operator: "NotIn" as const,
          values: [value],
        }))),
  ];
  // Spot work prefers spot nodes (the labels say which); it is not pinned to them, since a node marked spot by
  // a taint alone cannot be selected by affinity, only tolerated.
  const spotPreference = w.spot
    ? Object.entries(cfg.spotLabels).map(([key, value]) => ({
        weight: 100,
        preference: { matchExpressions: [{ key, operator: "In" as const, values: [value] }] },
      }))
    : [];
  const pod = new Pod({
    metadata: {
      name: names.pod,
      namespace: ns,
      labels: {
        ...base,
        [LABEL.run]: w.run,
        ...(cfg.kueueQueue ? { [KUEUE_QUEUE_LABEL]: cfg.kueueQueue } : {}),
      },
    },
    spec: {
      restartPolicy: notebook ? "Always" : "Never",
      // A stop must not wait out a long default; the workload gets 30 s to save its state.
      terminationGracePeriodSeconds: 30,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      imagePullSecrets: cfg.imagePullSecrets.map((name) => ({ name })),
      securityContext: { runAsNonRoot: true, runAsUser: cfg.runAsUser, fsGroup: cfg.runAsUser },
      tolerations,
      ...(affinityTerms.length > 0 || spotPreference.length > 0
        ? {
            affinity: {
              nodeAffinity: {
                ...(affinityTerms.length > 0
                  ? {
                      requiredDuringSchedulingIgnoredDuringExecution: {
                        nodeSelectorTerms: [{ matchExpressions: affinityTerms }],
                      },
                    }
                  : {}),
                ...(spotPreference.length > 0
                  ? { preferredDuringSchedulingIgnoredDuringExecution: spotPreference }
                  : {}),
              },
            },
          }
        : {}),
      containers: [
        {
          name: "workload",
          image: image(cfg, w.image),
          ...(notebook
            ? {
                command: ["jupyter", "lab"],
                args: [
                  "--ip=0.0.0.0",
                  `--port=${NOTEBOOK_PORT}`,
                  "--no-browser",
                  "--ServerApp.token=$(FORJA_NOTEBOOK_TOKEN)",
                  "--notebook-dir=/home/jovyan/work",
                ],
              }
            : w.command
              ? {
                  // The command is a shell line; its arguments follow it as "$@" (sh -c takes the first
                  // argument after the line as $0, so "sh" fills it and none of the spec's is lost).
                  command: ["/bin/sh", "-c", w.args?.length ? `${w.command} "$@"` : w.command],
                  ...(w.args?.length ? { args: ["sh", ...w.args] } : {}),
                }
              : w.args?.length
                ? { args: w.args }
                : {}),
          env,
          ...(port ? { ports: [{ name: "http", containerPort: port }] } : {}),
          resources: {
            requests: { cpu: String(w.vcpus), memory: `${w.ramGib}Gi` },
            limits: { memory: `${w.ramGib}Gi`, [gpuResource]: String(gpuQty) },
          },
          securityContext: {
            allowPrivilegeEscalation: false,
            privileged: false,
            capabilities: { drop: ["ALL"] },
          },
          volumeMounts: [
            { name: "dshm", mountPath: "/dev/shm" },
            ...(w.diskGib > 0 ? [{ name: "disk", mountPath: "/home/jovyan/work" }] : []),
          ],
        },
      ],
      volumes: [
        { name: "dshm", emptyDir: { medium: "Memory", sizeLimit: `${cfg.shmGib}Gi` } },
        ...(w.diskGib > 0 ? [{ name: "disk", persistentVolumeClaim: { claimName: names.pvc } }] : []),
      ],
    },
  });
  const m: Manifests = {
    namespace: new Namespace({ metadata: { name: ns, labels: { [LABEL.managedBy]: MANAGER } } }),
    secret: null,
    pvc:
      w.diskGib > 0
        ? new PersistentVolumeClaim({
            metadata: { name: names.pvc, namespace: ns, labels: base },
            spec: {
              accessModes: ["ReadWriteOnce"],
              ...(cfg.storageClass ? { storageClassName: cfg.storageClass } : {}),
              resources: { requests: { storage: `${w.diskGib}Gi` } },
            },
          })
        : null,
    service: port
      ? new Service({
          metadata: { name: names.service, namespace: ns, labels: base },
          spec: {
            selector: { [LABEL.instance]: w.instanceId },
            ports: [{ name: "http", port, targetPort: "http" }],
          },
        })
      : null,
    pod,
  };
  for (const obj of [m.namespace, m.pvc, m.service, m.pod]) obj?.validate();
  return m;
}

/** The notebook's token lives in a Secret, never in the pod spec that anyone who can read pods sees. */
export function tokenSecret(cfg: KubernetesRegionConfig, w: WorkloadSpec, token: string): Secret {
  const names = objectNames(w.instanceId, w.run);
  const secret = new Secret({
    metadata: {
      name: names.secret,
      namespace: namespaceFor(cfg, w.orgSlug, w.projectSlug),
      labels: { [LABEL.managedBy]: MANAGER, [LABEL.instance]: w.instanceId, [LABEL.region]: cfg.region },
    },
    type: "Opaque",
    stringData: { [TOKEN_KEY]: token },
  });
  secret.validate();
  return secret;
}
