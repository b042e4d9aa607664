import type { V1Pod } from "@kubernetes/client-node";
import { Deployment } from "kubernetes-models/apps/v1";
import { Pod } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseKubernetesRegion } from "../config";
import {
  buildReplicaDeployment,
  type ReplicaWorkload,
  replicaConnection,
  replicaPodIndex,
  replicaPodOf,
} from "../deployments";
import { buildManifests } from "../manifests";

const cfg = parseKubernetesRegion({ region: "k8s-test", imagePullSecrets: ["regcred"] });
const w: ReplicaWorkload = {
  instanceId: "0b6c2c7e-9a51-4d1e-8f0a-1234567890ab",
  orgId: "7f1e0000-0000-4000-8000-000000000001",
  orgSlug: "acme",
  projectSlug: "default",
  kind: "container",
  image: "forja/vllm:0.6",
  command: "python3 -m vllm.entrypoints.openai.api_server --port 8000",
  args: null,
  env: { MODEL: "llama" },
  exposedPort: 8000,
  diskGib: 0,
  gpuCount: 2,
  migProfile: null,
  gpuProducts: ["NVIDIA-H100-80GB-HBM3"],
  spot: false,
  vcpus: 26,
  ramGib: 200,
  run: "m3x1",
  service: {
    serviceId: "5a5a5a5a-0000-4000-8000-000000000002",
    serviceName: "chat",
    readiness: { path: "/v1/models", intervalSeconds: 5, timeoutSeconds: 2 },
    runningPod: null,
  },
};

describe("a service replica's Deployment (validated against kubernetes-models 4.5.1)", () => {
  it("is one replica of the instance's pod, with the GPU request, the service's probe and labels", () => {
    const d = buildReplicaDeployment(cfg, w);
    // Round-tripped as JSON (what the API server receives), it is a valid Deployment; its template a valid Pod.
    const json = JSON.parse(JSON.stringify(d));
    expect(() => new Deployment(json).validate()).not.toThrow();
    expect(() =>
      new Pod({
        metadata: { name: "x", ...json.spec.template.metadata },
        spec: json.spec.template.spec,
      }).validate(),
    ).not.toThrow();
    expect(json.apiVersion).toBe("apps/v1");
    expect(json.metadata).toMatchObject({ name: "forja-0b6c2c7e9a51", namespace: "forja-acme-default" });
    expect(json.spec).toMatchObject({ replicas: 1, strategy: { type: "Recreate" } });
    // The selector matches the template (the API server refuses a Deployment whose selector does not).
    for (const [k, v] of Object.entries(json.spec.selector.matchLabels))
      expect(json.spec.template.metadata.labels[k]).toBe(v);
    expect(json.spec.template.metadata.labels).toMatchObject({
      "app.kubernetes.io/managed-by": "forja",
      "forja.dev/instance": w.instanceId,
      "forja.dev/org": w.orgId,
      "forja.dev/project": "default",
      "forja.dev/region": "k8s-test",
      "forja.dev/run": "m3x1",
      "forja.dev/service": w.service.serviceId,
      "forja.dev/service-name": "chat",
    });
    const pod = buildManifests(cfg, w).pod.spec;
    const t = json.spec.template.spec;
    // The instance's pod spec: the same limits, affinity, tolerations, security context; restart Always.
    expect(t.containers[0].resources).toEqual(JSON.parse(JSON.stringify(pod?.containers[0]?.resources)));
    expect(t.containers[0].resources.limits["nvidia.com/gpu"]).toBe("2");
    expect(t.affinity).toEqual(JSON.parse(JSON.stringify(pod?.affinity)));
    expect(t.tolerations).toEqual(JSON.parse(JSON.stringify(pod?.tolerations)));
    expect(t.securityContext).toEqual(JSON.parse(JSON.stringify(pod?.securityContext)));
    expect(t.containers[0].securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      privileged: false,
    });
    expect(t.restartPolicy).toBe("Always");
    expect(t.automountServiceAccountToken).toBe(false);
    expect(t.containers[0].readinessProbe).toEqual({
      httpGet: { path: "/v1/models", port: "http" },
      periodSeconds: 5,
      timeoutSeconds: 2,
      failureThreshold: 3,
    });
    expect(t.containers[0].ports).toEqual([{ name: "http", containerPort: 8000 }]);
  });

  it("a MIG replica requests nvidia.com/mig-<profile>: 1, like the instance's pod", () => {
    const d = buildReplicaDeployment(cfg, { ...w, gpuCount: 1, migProfile: "1g.10gb" });
    expect(d.spec?.template.spec?.containers[0]?.resources?.limits).toEqual({
      memory: "200Gi",
      "nvidia.com/mig-1g.10gb": "1",
    });
  });

  it("a spot replica tolerates the spot taints", () => {
    const d = buildReplicaDeployment(cfg, { ...w, spot: true });
    expect(d.spec?.template.spec?.tolerations?.map((t) => t.key)).toEqual(
      expect.arrayContaining(cfg.spotTaints),
    );
  });

  it("kubernetes-models refuses what the API server would (replicas that is not a number)", () => {
    const d = JSON.parse(JSON.stringify(buildReplicaDeployment(cfg, w)));
    d.spec.replicas = "one";
    expect(() => new Deployment(d).validate()).toThrow();
  });

  it("once running on a pod, only that pod is the replica; the endpoint is the pod's address", () => {
    const pod = (name: string, created: string, deleting = false): V1Pod => ({
      metadata: {
        name,
        creationTimestamp: created as never,
        ...(deleting ? { deletionTimestamp: created as never } : {}),
        labels: {
          "forja.dev/instance": w.instanceId,
          "forja.dev/run": w.run,
          "forja.dev/service": w.service.serviceId,
        },
      },
      status: { podIP: "10.1.2.3" },
    });
    const index = replicaPodIndex([
      pod("forja-0b6c2c7e9a51-aa-1", "2026-12-02T10:00:00Z", true),
      pod("forja-0b6c2c7e9a51-aa-2", "2026-12-02T10:01:00Z"),
    ]);
    expect(replicaPodOf(index, { ...w, state: "provisioning" })?.metadata?.name).toBe(
      "forja-0b6c2c7e9a51-aa-2",
    );
    const running = {
      ...w,
      state: "running",
      service: { ...w.service, runningPod: "forja-0b6c2c7e9a51-aa-1" },
    };
    expect(replicaPodOf(index, running)?.metadata?.name).toBe("forja-0b6c2c7e9a51-aa-1");
    const gone = { ...w, state: "running", service: { ...w.service, runningPod: "forja-0b6c2c7e9a51-zz-9" } };
    expect(replicaPodOf(index, gone)).toBeUndefined();
    const p = index.get(`${w.instanceId}@${w.run}`)?.[1] as V1Pod;
    expect(replicaConnection(cfg, w, p)).toEqual({
      endpoint: "http://10.1.2.3:8000",
      namespace: "forja-acme-default",
      pod: "forja-0b6c2c7e9a51-aa-2",
      deployment: "forja-0b6c2c7e9a51",
    });
  });
});
