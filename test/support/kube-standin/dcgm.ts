import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { KubeApiStandIn } from "./server";
import type { KObject } from "./store";

type Limits = Record<string, string>;
const limitsOf = (p: KObject) =>
  ((p.spec as { containers: Array<{ resources?: { limits?: Limits } }> }).containers[0]?.resources?.limits ??
    {}) as Limits;

/**
 * A stand-in for NVIDIA's DCGM exporter (with its kubelet pod-resources mapping on): a Prometheus text page with
 * one series per GPU of each running pod on the stand-in's nodes, labelled with the pod and namespace as the real
 * exporter labels them. Readings are shaped by the workload (a container trains hard, a notebook idles along)
 * and move with time, so a chart has something to draw. Whole GPUs report DCGM_FI_DEV_GPU_UTIL, MIG slices
 * DCGM_FI_PROF_GR_ENGINE_ACTIVE (as on real MIG devices).
 */
export class DcgmExporterStandIn {
  private server: Server | null = null;
  url = "";
  constructor(private api: KubeApiStandIn) {}

  text(now = Date.now()): string {
    const series: Record<string, string[]> = {
      DCGM_FI_DEV_GPU_UTIL: [],
      DCGM_FI_PROF_GR_ENGINE_ACTIVE: [],
      DCGM_FI_DEV_FB_USED: [],
      DCGM_FI_DEV_POWER_USAGE: [],
      DCGM_FI_DEV_GPU_TEMP: [],
    };
    const nextGpu = new Map<string, number>();
    const running = this.api.store
      .list("pods")
      .filter((p) => (p.status as { phase?: string } | undefined)?.phase === "Running")
      .sort((a, b) =>
        `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace}/${b.metadata.name}`,
        ),
      );
    for (const pod of running) {
      const node = (pod.spec as { nodeName?: string }).nodeName ?? "";
      const limits = limitsOf(pod);
      const mig = Object.keys(limits).find((k) => k.startsWith("nvidia.com/mig-"));
      const count = mig ? 1 : Number(limits["nvidia.com/gpu"] ?? 0);
      const busy = pod.metadata.labels?.["forja.dev/kind"] === "container";
      for (let i = 0; i < count; i++) {
        const gpu = nextGpu.get(node) ?? 0;
        nextGpu.set(node, gpu + 1);
        const labels = [
          `gpu="${gpu}"`,
          `UUID="GPU-${node}-${gpu}"`,
          ...(mig ? [`GPU_I_PROFILE="${mig.slice("nvidia.com/mig-".length)}"`, `GPU_I_ID="${i}"`] : []),
          `Hostname="${node}"`,
          `container="workload"`,
          `namespace="${pod.metadata.namespace}"`,
          `pod="${pod.metadata.name}"`,
        ].join(",");
        const wave = Math.sin(now / 20_000 + gpu);
        const util = busy ? 88 + 7 * wave : 20 + 15 * wave;
        if (mig) series.DCGM_FI_PROF_GR_ENGINE_ACTIVE?.push(`{${labels}} ${(util / 100).toFixed(3)}`);
        else series.DCGM_FI_DEV_GPU_UTIL?.push(`{${labels}} ${Math.round(util)}`);
        series.DCGM_FI_DEV_FB_USED?.push(`{${labels}} ${busy ? 61_440 : 8_192}`);
        series.DCGM_FI_DEV_POWER_USAGE?.push(`{${labels}} ${(busy ? 610 : 180) + Math.round(20 * wave)}`);
        series.DCGM_FI_DEV_GPU_TEMP?.push(`{${labels}} ${busy ? 67 : 45}`);
      }
    }
    return Object.entries(series)
      .flatMap(([name, lines]) => [`# TYPE ${name} gauge`, ...lines.map((l) => `${name}${l}`)])
      .join("\n")
      .concat("\n");
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      if (req.url !== "/metrics") {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
      res.end(this.text());
    });
    await new Promise<void>((r) => this.server?.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/metrics`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
