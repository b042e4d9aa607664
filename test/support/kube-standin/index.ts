import { StandInKubelet } from "./kubelet";
import { KubeApiStandIn } from "./server";

export type { StandInNode } from "./kubelet";
export type { Call, Fault, Verb } from "./server";
export { KubeApiStandIn, StandInKubelet };

/** The API server stand-in and its kubelet, ticking on its own every `tickMs` (tests may also tick by hand). */
export async function startKubeStandIn(opts: { tickMs?: number } = {}) {
  const api = new KubeApiStandIn();
  const url = await api.start();
  const kubelet = new StandInKubelet(api);
  const timer = opts.tickMs ? setInterval(() => kubelet.tick(), opts.tickMs) : null;
  return {
    api,
    kubelet,
    url,
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
      await api.stop();
    },
  };
}
