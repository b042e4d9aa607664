import { spawnSync } from "node:child_process";
import { Pod } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import catalog from "@/lib/seed/catalog-data.json";
import { parseKubernetesRegion } from "../config";
import { buildManifests, tokenSecret, type WorkloadSpec } from "../manifests";

const cfg = parseKubernetesRegion({
  region: "k8s-test",
  storageClass: "fast-ssd",
  imagePullSecrets: ["regcred"],
});
const base: WorkloadSpec = {
  instanceId: "0b6c2c7e-9a51-4d1e-8f0a-1234567890ab",
  orgId: "7f1e0000-0000-4000-8000-000000000001",
  orgSlug: "Acme_Labs",
  projectSlug: "default",
  kind: "container",
  image: "forja/pytorch:2.5-cuda12.4",
  command: "python train.py --epochs 3",
  args: null,
  env: { WANDB_MODE: "offline" },
  exposedPort: null,
  diskGib: 0,
  gpuCount: 1,
  migProfile: null,
  gpuProducts: ["NVIDIA-H100-80GB-HBM3"],
  spot: false,
  vcpus: 26,
  ramGib: 200,
  run: "m3x1",
};
const limits = (w: WorkloadSpec) => buildManifests(cfg, w).pod.spec?.containers[0]?.resources?.limits;

describe("manifests (validated against the Kubernetes schemas by kubernetes-models)", () => {
  it.each([1, 2, 4, 8])("whole GPUs: %i × nvidia.com/gpu in limits, pinned to the product", (n) => {
    const m = buildManifests(cfg, { ...base, gpuCount: n });
    expect(limits({ ...base, gpuCount: n })).toMatchObject({ "nvidia.com/gpu": String(n), memory: "200Gi" });
    const term =
      m.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
        ?.nodeSelectorTerms[0];
    expect(term?.matchExpressions).toEqual([
      { key: "nvidia.com/gpu.product", operator: "In", values: ["NVIDIA-H100-80GB-HBM3"] },
      // On-demand work stays off spot nodes of every configured convention (GKE, AKS, EKS, Karpenter).
      { key: "cloud.google.com/gke-spot", operator: "NotIn", values: ["true"] },
      { key: "kubernetes.azure.com/scalesetpriority", operator: "NotIn", values: ["spot"] },
      { key: "eks.amazonaws.com/capacityType", operator: "NotIn", values: ["SPOT"] },
      { key: "karpenter.sh/capacity-type", operator: "NotIn", values: ["spot"] },
    ]);
    expect(
      m.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ).toBeUndefined();
    expect(m.pod.spec?.tolerations).toEqual([
      { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" },
    ]);
  });

  const profiles = catalog.gpuModels.flatMap((g) => g.migProfiles.map((p) => p.name));
  it(`every MIG profile of the catalog (${profiles.length}): nvidia.com/mig-<profile>: 1 on a mixed-strategy node`, () => {
    expect(profiles.length).toBeGreaterThan(10);
    for (const p of profiles) {
      const m = buildManifests(cfg, { ...base, migProfile: p });
      expect(m.pod.spec?.containers[0]?.resources?.limits).toEqual({
        memory: "200Gi",
        [`nvidia.com/mig-${p}`]: "1",
      });
      const exprs =
        m.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms[0]?.matchExpressions;
      expect(exprs).toContainEqual({ key: "nvidia.com/mig.strategy", operator: "In", values: ["mixed"] });
    }
  });

  it("spot tolerates the spot taints (GKE, AKS, Forja's own) besides the GPU taint, and prefers spot nodes", () => {
    const spot = buildManifests(cfg, { ...base, spot: true }).pod.spec;
    const affinity = spot?.affinity?.nodeAffinity;
    expect(
      affinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]?.matchExpressions,
    ).toEqual([{ key: "nvidia.com/gpu.product", operator: "In", values: ["NVIDIA-H100-80GB-HBM3"] }]);
    expect(affinity?.preferredDuringSchedulingIgnoredDuringExecution).toContainEqual({
      weight: 100,
      preference: {
        matchExpressions: [{ key: "eks.amazonaws.com/capacityType", operator: "In", values: ["SPOT"] }],
      },
    });
    const own = parseKubernetesRegion({ region: "x", spotLabels: { "node.example.com/lifecycle": "spot" } });
    expect(
      buildManifests(own, base).pod.spec?.affinity?.nodeAffinity
        ?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]?.matchExpressions,
    ).toContainEqual({ key: "node.example.com/lifecycle", operator: "NotIn", values: ["spot"] });
    const keys = spot?.tolerations?.map((t) => t.key);
    expect(keys).toEqual([
      "nvidia.com/gpu",
      "cloud.google.com/gke-spot",
      "kubernetes.azure.com/scalesetpriority",
      "forja.dev/spot",
    ]);
  });

  it("disk: a PVC of the storage class, mounted as the work folder", () => {
    const m = buildManifests(cfg, { ...base, diskGib: 100 });
    expect(m.pvc?.spec).toMatchObject({
      storageClassName: "fast-ssd",
      resources: { requests: { storage: "100Gi" } },
    });
    expect(m.pod.spec?.volumes?.map((v) => v.name)).toEqual(["dshm", "disk"]);
    expect(buildManifests(cfg, base).pvc).toBeNull();
  });

  it("notebook: Jupyter with the token from a Secret (never in the pod spec), a Service on 8888", () => {
    const w = { ...base, kind: "notebook" as const };
    const m = buildManifests(cfg, w);
    const c = m.pod.spec?.containers[0];
    expect(c?.command).toEqual(["jupyter", "lab"]);
    expect(c?.env?.find((e) => e.name === "FORJA_NOTEBOOK_TOKEN")?.valueFrom?.secretKeyRef?.name).toMatch(
      /-token$/,
    );
    expect(JSON.stringify(m.pod)).not.toMatch(/[0-9a-f]{48}/);
    expect(m.service?.spec?.ports).toEqual([{ name: "http", port: 8888, targetPort: "http" }]);
    expect(m.pod.spec?.restartPolicy).toBe("Always");
    const secret = tokenSecret(cfg, w, "a".repeat(48));
    expect(secret.stringData).toEqual({ token: "a".repeat(48) });
  });

  it("container: the spec's command through a shell, restartPolicy Never, no Service unless a port is exposed", () => {
    const m = buildManifests(cfg, base);
    expect(m.pod.spec?.containers[0]?.command).toEqual(["/bin/sh", "-c", "python train.py --epochs 3"]);
    expect(m.pod.spec?.restartPolicy).toBe("Never");
    expect(m.service).toBeNull();
    expect(buildManifests(cfg, { ...base, exposedPort: 8000 }).service?.spec?.ports?.[0]?.port).toBe(8000);
  });

  it("container: the spec's arguments reach its command line whole (run here through the same shell)", () => {
    const argv = (w: typeof base) => {
      const c = buildManifests(cfg, w).pod.spec?.containers[0];
      return [...(c?.command ?? []), ...(c?.args ?? [])];
    };
    const [sh, ...rest] = argv({ ...base, command: "printf '%s|'", args: ["a b", "c"] });
    expect(spawnSync(sh as string, rest, { encoding: "utf8" }).stdout).toBe("a b|c|");
    // Without a command the image's entrypoint gets the arguments as they are.
    expect(argv({ ...base, command: null, args: ["--epochs", "3"] })).toEqual(["--epochs", "3"]);
  });

  it("runs non-root without privilege escalation, /dev/shm in memory, labels tying it to Forja, a DNS-safe namespace", () => {
    const m = buildManifests(cfg, base);
    expect(m.pod.spec?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(m.pod.spec?.containers[0]?.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      privileged: false,
    });
    expect(m.pod.spec?.volumes?.[0]).toEqual({
      name: "dshm",
      emptyDir: { medium: "Memory", sizeLimit: "16Gi" },
    });
    expect(m.pod.metadata?.labels).toMatchObject({
      "app.kubernetes.io/managed-by": "forja",
      "forja.dev/instance": base.instanceId,
      "forja.dev/org": base.orgId,
      "forja.dev/project": "default",
      "forja.dev/region": "k8s-test",
      "forja.dev/run": "m3x1",
    });
    expect(m.pod.metadata?.namespace).toBe("forja-acme-labs-default");
    expect(m.pod.spec?.imagePullSecrets).toEqual([{ name: "regcred" }]);
  });

  it("Kueue: with kueueQueue the pod carries kueue.x-k8s.io/queue-name (Kueue's pod integration), without it not", () => {
    const kueue = parseKubernetesRegion({ region: "k8s-test", kueueQueue: "forja-gpus" });
    expect(buildManifests(kueue, base).pod.metadata?.labels).toMatchObject({
      "kueue.x-k8s.io/queue-name": "forja-gpus",
    });
    expect(buildManifests(cfg, base).pod.metadata?.labels).not.toHaveProperty("kueue.x-k8s.io/queue-name");
  });

  it("the schemas do refuse a wrong object (the check can fail)", () => {
    const bad = new Pod({
      metadata: { name: "x" },
      spec: { containers: [{ name: "c", image: "i", resources: { limits: 5 as never } }] },
    });
    expect(() => bad.validate()).toThrow(/limits/);
  });
});
