import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startKubeStandIn } from "@/test/support/kube-standin";
import { LABEL, MANAGER, managedSelector } from "../names";
import { PodWatch, type PodWatchOptions } from "../watcher";

// The pod watch alone against the API server stand-in: no database, no provider, only the connection.
let cluster: Awaited<ReturnType<typeof startKubeStandIn>>;
let watch: PodWatch | null = null;
const REGION = "k8s-watch";
beforeEach(async () => {
  cluster = await startKubeStandIn();
  cluster.api.bookmarkMs = 50;
  cluster.api.store.put("namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "ns" } });
});
afterEach(async () => {
  watch?.stop();
  watch = null;
  await cluster.stop();
});

async function started(opts: PodWatchOptions = {}) {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  watch = new PodWatch(kc, managedSelector(REGION), { backoffMinMs: 20, resyncMs: 3_600_000, ...opts });
  watch.start();
  await watch.whenSynced();
  await until(() => (watch?.stats.connects ?? 0) > 0);
  return watch;
}

function pod(name: string, region = REGION) {
  return cluster.api.store.put("pods", {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "ns", labels: { [LABEL.managedBy]: MANAGER, [LABEL.region]: region } },
    spec: { containers: [{ name: "workload", image: "x" }] },
    status: { phase: "Pending" },
  });
}

async function until(ok: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

const watchCalls = () => cluster.api.calls.filter((c) => c.verb === "watch");

describe("the pod watch's connection", () => {
  it("bookmarks move its resourceVersion on: after a compaction a reconnect continues, no 410 and no relist", async () => {
    const w = await started();
    // Other regions' pods move the cluster's resourceVersion; none of them reaches this watch as an event.
    for (let i = 0; i < 5; i++) pod(`other-${i}`, "elsewhere");
    await new Promise((r) => setTimeout(r, 200)); // a few bookmarks
    cluster.api.store.compact(cluster.api.store.currentRv());
    cluster.api.dropWatches();
    await until(() => w.stats.connects > 1);
    pod("mine");
    await until(() => w.pods.has("ns/mine"));
    expect(w.stats).toMatchObject({ gone: 0, lists: 1 });
  });

  it("backs off exponentially while the API server fails the watch or closes it before saying anything", async () => {
    const w = await started();
    cluster.api.injectFault({ verb: "watch", resource: "pods", status: 500, times: 2 });
    cluster.api.injectFault({ verb: "watch", resource: "pods", status: "close", times: 2 });
    const before = watchCalls().length;
    cluster.api.dropWatches();
    await until(() => watchCalls().length >= before + 5, 10_000);
    pod("after");
    await until(() => w.pods.has("ns/after"));
    const at = watchCalls()
      .slice(before, before + 5)
      .map((c) => c.at);
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    // 20 ms, doubling: each wait at least as long as the backoff asked (a closing proxy too, not a tight loop).
    gaps.forEach((g, i) => {
      expect(g).toBeGreaterThanOrEqual(20 * 2 ** i - 2);
    });
    expect(w.stats.errors).toBeGreaterThanOrEqual(4);
  });

  it("a 410 Gone answered to the watch request itself relists from scratch", async () => {
    const w = await started();
    cluster.api.injectFault({ verb: "watch", resource: "pods", status: 410 });
    cluster.api.dropWatches();
    await until(() => w.stats.gone > 0);
    await until(() => w.stats.lists > 1);
    pod("after-gone");
    await until(() => w.pods.has("ns/after-gone"));
  });

  it("a watch that hangs without a word is abandoned and reconnected (not left stale until the resync)", async () => {
    const w = await started({ silenceMs: 500 });
    cluster.api.injectFault({ verb: "watch", resource: "pods", status: "timeout" });
    cluster.api.dropWatches();
    pod("while-hung");
    await until(() => w.pods.has("ns/while-hung"), 5000);
    expect(w.stats.lastError).toMatch(/said nothing for 0.5 s/);
  });

  it("asks the server to close each watch after timeoutSeconds and continues at once from where it was", async () => {
    const w = await started({ watchTimeoutS: 1 });
    await until(() => w.stats.connects >= 3, 6000);
    pod("later");
    await until(() => w.pods.has("ns/later"));
    expect(w.stats).toMatchObject({ errors: 0, gone: 0, lists: 1 });
  });
});
