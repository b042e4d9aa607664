import type { V1Node } from "@kubernetes/client-node";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { allCatalogs } from "@/messages";
import { parseKubernetesRegion } from "../config";
import { discoverNode, modelOfProduct } from "../discovery";
import { observePod, unschedulableReason } from "../pod-state";

const cfg = parseKubernetesRegion({ region: "k8s-test", productModels: { "Tesla-A100-Custom": "a100" } });
function node(
  over: {
    labels?: Record<string, string>;
    alloc?: Record<string, string>;
    unschedulable?: boolean;
    ready?: string;
    taints?: Array<{ key: string; effect: string }>;
  } = {},
): V1Node {
  return {
    metadata: {
      name: "n1",
      labels: {
        "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
        "nvidia.com/gpu.count": "8",
        "topology.kubernetes.io/region": "eu-west1",
        "topology.kubernetes.io/zone": "eu-west1-b",
        ...over.labels,
      },
    },
    spec: { unschedulable: over.unschedulable, taints: over.taints },
    status: {
      allocatable: { cpu: "192", memory: "2113Gi", "nvidia.com/gpu": "8", ...over.alloc },
      conditions: [{ type: "Ready", status: over.ready ?? "True" }],
    },
  };
}

describe("discovery from node objects", () => {
  it("reads GPUs, product, region and zone; maps the product to a Forja model", () => {
    const d = discoverNode(cfg, node());
    expect(d).toMatchObject({
      modelId: "h100",
      gpuCount: 8,
      wholeAllocatable: 8,
      region: "eu-west1",
      zone: "eu-west1-b",
      spot: false,
      status: "active",
      vcpus: 192,
      ramGib: 2113,
    });
    expect(modelOfProduct(cfg, "NVIDIA-A100-SXM4-40GB")).toBe("a100");
    expect(modelOfProduct(cfg, "Tesla-A100-Custom")).toBe("a100");
  });

  it("MIG mixed strategy: nvidia.com/mig-<profile> resources counted per profile", () => {
    const d = discoverNode(
      cfg,
      node({
        alloc: { "nvidia.com/gpu": "4", "nvidia.com/mig-1g.10gb": "14", "nvidia.com/mig-3g.40gb": "4" },
        labels: { "nvidia.com/mig.strategy": "mixed" },
      }),
    );
    expect(d.mig).toEqual({ "1g.10gb": 14, "3g.40gb": 4 });
    expect(d).toMatchObject({ gpuCount: 8, wholeAllocatable: 4, migStrategy: "mixed" });
  });

  it.each([
    ["GKE", { "cloud.google.com/gke-spot": "true" }],
    ["AKS", { "kubernetes.azure.com/scalesetpriority": "spot" }],
    ["EKS", { "eks.amazonaws.com/capacityType": "SPOT" }],
    ["Karpenter", { "karpenter.sh/capacity-type": "spot" }],
  ])("spot from the %s label", (_, labels) => {
    expect(discoverNode(cfg, node({ labels })).spot).toBe(true);
  });

  it("spot from a configured taint, and a configurable label", () => {
    expect(discoverNode(cfg, node({ taints: [{ key: "forja.dev/spot", effect: "NoSchedule" }] })).spot).toBe(
      true,
    );
    const own = parseKubernetesRegion({
      region: "x",
      spotLabels: { "node.example.com/lifecycle": "preemptible" },
    });
    expect(discoverNode(own, node({ labels: { "node.example.com/lifecycle": "preemptible" } })).spot).toBe(
      true,
    );
    expect(discoverNode(own, node({ labels: { "cloud.google.com/gke-spot": "true" } })).spot).toBe(false);
  });

  it("cordoned → draining, NotReady → down, no GPUs → not a GPU node", () => {
    expect(discoverNode(cfg, node({ unschedulable: true })).status).toBe("draining");
    expect(discoverNode(cfg, node({ ready: "False" })).status).toBe("down");
    expect(discoverNode(cfg, node({ alloc: { "nvidia.com/gpu": "0" } })).modelId).toBeNull();
  });
});

describe("pod states", () => {
  const pod = (status: object, spec: object = { nodeName: "n1", containers: [] }) =>
    ({ metadata: { name: "p" }, spec, status }) as never;
  it("waiting reasons that do not fix themselves fail the instance with the kubelet's words", () => {
    for (const reason of ["ImagePullBackOff", "ErrImagePull", "CrashLoopBackOff"]) {
      const o = observePod(
        pod({ phase: "Pending", containerStatuses: [{ state: { waiting: { reason, message: "m" } } }] }),
      );
      expect(o).toEqual({
        kind: "failed",
        reason: {
          code: "container_cannot_start",
          params: { waiting: reason, detail: "m" },
          text: `${reason}: m`,
        },
      });
    }
    expect(
      observePod(
        pod({
          phase: "Pending",
          containerStatuses: [{ state: { waiting: { reason: "ContainerCreating" } } }],
        }),
      ),
    ).toEqual({ kind: "scheduled", nodeName: "n1" });
  });
  it("eviction and spot reclaim are preemptions; PodScheduled=False is the queued reason", () => {
    expect(observePod(pod({ phase: "Failed", reason: "Evicted", message: "low memory" })).kind).toBe(
      "preempted",
    );
    expect(
      observePod(
        pod({
          phase: "Running",
          conditions: [{ type: "DisruptionTarget", status: "True", reason: "DeletionByTaintManager" }],
        }),
      ),
    ).toMatchObject({
      kind: "preempted",
      reason: { code: "preempted_tainted", text: expect.stringMatching(/tainted out of service/) },
    });
    const q = observePod(
      pod(
        {
          phase: "Pending",
          conditions: [
            {
              type: "PodScheduled",
              status: "False",
              message: "0/3 nodes are available: 3 Insufficient nvidia.com/mig-1g.10gb.",
            },
          ],
        },
        { containers: [] },
      ),
    );
    expect(q).toEqual({
      kind: "unscheduled",
      reason: expect.stringMatching(
        /^Waiting for the cluster: no node has a free nvidia\.com\/mig-1g\.10gb right now/,
      ),
      queueReason: {
        code: "cluster_insufficient",
        params: {
          resource: "nvidia.com/mig-1g.10gb",
          detail: "0/3 nodes are available: 3 Insufficient nvidia.com/mig-1g.10gb.",
        },
      },
    });
  });
  it("each scheduler reason is a QueueReasons code worded in en and es", () => {
    const cases: Array<[string, string]> = [
      ["0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", "cluster_insufficient"],
      [
        "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.",
        "cluster_no_matching_node",
      ],
      ["0/1 nodes are available: 1 node(s) had untolerated taint {team: ml}.", "cluster_nodes_reserved"],
      ["0/1 nodes are available: 1 Too many pods.", "cluster_scheduler"],
    ];
    for (const [message, code] of cases) {
      const r = unschedulableReason(message);
      expect(r.code).toBe(code);
      for (const locale of ["en", "es"] as const) {
        const t = createTranslator({ locale, messages: allCatalogs[locale], namespace: "QueueReasons" });
        const words = t(r.code, r.params);
        expect(words).toContain(message);
        expect(words).not.toContain("QueueReasons");
      }
    }
    const waiting = observePod(pod({ phase: "Pending" }, { containers: [] }));
    expect(waiting).toMatchObject({ queueReason: { code: "cluster_waiting" } });
  });
});
