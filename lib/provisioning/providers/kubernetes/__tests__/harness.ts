import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { newFleet } from "@/lib/provisioning/__tests__/fixtures";
import { startKubeStandIn } from "@/test/support/kube-standin";
import { setRegionProvider } from "../..";
import {
  attachKubernetesRegion,
  detachKubernetesRegion,
  parseKubernetesRegion,
  syncKubernetesRegion,
} from "..";
import type { KubernetesRegionInput } from "../config";
import type { RegionRuntime } from "../runtime";

export const H100 = "NVIDIA-H100-80GB-HBM3";

/** A fake DCGM exporter on loopback: serves whatever text the test sets. */
export async function fakeDcgmExporter() {
  let text = "";
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    set: (t: string) => {
      text = t;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A Forja region (with prices) attached to a fresh API server stand-in, and helpers to drive both sides. */
export async function k8sWorld(over: Partial<KubernetesRegionInput> = {}) {
  const fleet = await newFleet([], { models: ["h100"] });
  const cluster = await startKubeStandIn();
  const dcgm = await fakeDcgmExporter();
  const cfg = parseKubernetesRegion({
    region: fleet.region,
    storageClass: "fast-ssd",
    imagePullSecrets: ["regcred"],
    dcgmExporterUrls: [dcgm.url],
    ...over,
  });
  let rt: RegionRuntime = attachKubernetesRegion(setRegionProvider, cfg, {
    kubeconfigYaml: cluster.kubeconfig,
  });
  const ctx = () => systemCtx("provider");
  /** Wait until the runtime's watch has caught up with the stand-in's pods. */
  async function caughtUp() {
    for (let i = 0; i < 100; i++) {
      const want = cluster.api.store
        .list("pods")
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}@${p.metadata.resourceVersion}`);
      const have = [...(rt.watch?.pods.values() ?? [])].map(
        (p) => `${p.metadata?.namespace}/${p.metadata?.name}@${p.metadata?.resourceVersion}`,
      );
      if (rt.watch && want.sort().join() === have.sort().join()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the watch did not catch up with the stand-in");
  }
  /** One worker pass, then the cluster's scheduler/kubelet, then the watch catching up. */
  async function pass(ticks = 1) {
    const r = await syncKubernetesRegion(ctx(), rt, { backoffMinMs: 20 });
    await caughtUp();
    for (let i = 0; i < ticks; i++) cluster.kubelet.tick();
    await caughtUp();
    return r;
  }
  async function state(id: string) {
    const r = await getDb().execute<{
      state: string;
      state_reason: string | null;
      queue_reason: { code: string; params: Record<string, string | number> } | null;
      node_id: string | null;
      connection: Record<string, string> | null;
    }>(sql`select state, state_reason, queue_reason, node_id, connection from instances where id = ${id}`);
    return r.rows[0];
  }
  /** A restarted worker: a new runtime (new client, new watch) for the same region. */
  function restartWorker() {
    detachKubernetesRegion(cfg.region);
    rt = attachKubernetesRegion(setRegionProvider, cfg, { kubeconfigYaml: cluster.kubeconfig });
  }
  return {
    fleet,
    cluster,
    dcgm,
    cfg,
    rt: () => rt,
    pass,
    caughtUp,
    state,
    restartWorker,
    close: async () => {
      detachKubernetesRegion(cfg.region);
      await cluster.stop();
      await dcgm.stop();
    },
  };
}
