import { DcgmExporterStandIn } from "./dcgm";
import { StandInKubelet } from "./kubelet";
import { KubeApiStandIn } from "./server";

export type { StandInNode } from "./kubelet";
export type { Call, Fault, Verb } from "./server";
export { DcgmExporterStandIn, KubeApiStandIn, StandInKubelet };

/**
 * The API server stand-in and its kubelet, ticking on its own every `tickMs` (tests may also tick by hand); with
 * `dcgm`, a DCGM exporter stand-in reporting the GPUs of its running pods at `dcgmUrl`.
 */
export async function startKubeStandIn(opts: { tickMs?: number; dcgm?: boolean } = {}) {
  const api = new KubeApiStandIn();
  const url = await api.start();
  const kubelet = new StandInKubelet(api);
  const dcgm = opts.dcgm ? new DcgmExporterStandIn(api) : null;
  const dcgmUrl = dcgm ? await dcgm.start() : null;
  const timer = opts.tickMs ? setInterval(() => kubelet.tick(), opts.tickMs) : null;
  return {
    api,
    kubelet,
    url,
    dcgmUrl,
    /** A kubeconfig (YAML) pointing at the stand-in, for KubeConfig.loadFromString or a file. */
    kubeconfig: [
      "apiVersion: v1",
      "kind: Config",
      `clusters: [{name: standin, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]`,
      "users: [{name: forja, user: {token: standin-token}}]",
      "contexts: [{name: standin, context: {cluster: standin, user: forja}}]",
      "current-context: standin",
    ].join("\n"),
    stop: async () => {
      if (timer) clearInterval(timer);
      await kubelet.closeServers();
      await dcgm?.stop();
      await api.stop();
    },
  };
}
