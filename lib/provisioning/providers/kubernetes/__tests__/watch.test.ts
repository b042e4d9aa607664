import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { launch, terminate } from "@/lib/provisioning";
import { bigQuota, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { detachKubernetesRegion } from "..";
import { H100, k8sWorld } from "./harness";

let w: Awaited<ReturnType<typeof k8sWorld>>;
beforeAll(async () => {
  w = await k8sWorld();
  w.cluster.kubelet.addNode({ name: "gpu-a", product: H100, gpus: 8 });
  w.cluster.kubelet.addNode({
    name: "spot-1",
    product: H100,
    gpus: 8,
    labels: { "cloud.google.com/gke-spot": "true" },
  });
});
afterAll(() => w.close());

const podOf = (id: string) =>
  w.cluster.api.store.list("pods").find((p) => p.metadata.labels?.["forja.dev/instance"] === id);

async function runningSpot(node?: string) {
  const o = await newOrg("k8swatch");
  await bigQuota(o.org.id, w.fleet.region);
  const id = (
    await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, { pricingModel: "spot", autoRecover: true }))
  ).instance.id;
  await w.pass();
  if (node) {
    const p = podOf(id);
    if (p) w.cluster.api.store.put("pods", { ...p, spec: { ...(p.spec ?? {}), nodeName: node } });
    await w.caughtUp();
  }
  await w.pass();
  await w.pass();
  expect((await w.state(id))?.state).toBe("running");
  return id;
}

async function events(id: string) {
  const r = await getDb().execute<{ to_state: string }>(
    sql`select to_state from instance_events where instance_id = ${id} order by id`,
  );
  return r.rows.map((e) => e.to_state);
}

describe("spot and on-demand on the cluster", () => {
  it("on-demand work never lands on a (label-only) spot node; spot work prefers one", async () => {
    const o = await newOrg("k8sspot");
    await bigQuota(o.org.id, w.fleet.region);
    const big = { kind: "container", command: "python train.py", instanceType: "h100.8x" };
    const a = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, big))).instance.id;
    const b = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, big))).instance.id;
    for (let i = 0; i < 3; i++) await w.pass();
    const states = [(await w.state(a))?.state, (await w.state(b))?.state].sort();
    // gpu-a holds one; the free spot node must not take the other.
    expect(states).toEqual(["queued", "running"]);
    const placed = [podOf(a), podOf(b)].map((p) => (p?.spec as { nodeName?: string } | undefined)?.nodeName);
    expect(placed.sort()).toEqual(["gpu-a", undefined]);
    await terminate(o.ctx, o.slug, a);
    await terminate(o.ctx, o.slug, b);
    await w.pass();
    await w.pass();
    // Both nodes free: the spot instance goes to the spot node, not the first node that fits.
    const s = (
      await launch(
        o.ctx,
        o.slug,
        notebookSpec(w.fleet.region, { ...big, instanceType: "h100.1x", pricingModel: "spot" }),
      )
    ).instance.id;
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(s))?.state).toBe("running");
    expect((podOf(s)?.spec as { nodeName?: string } | undefined)?.nodeName).toBe("spot-1");
    await terminate(o.ctx, o.slug, s);
    await w.pass();
    await w.pass();
    expect(podOf(s)).toBeUndefined();
  });
});

describe("state from the watch", () => {
  it("eviction → preempted → requeued (auto-recover) → a new pod runs", async () => {
    const id = await runningSpot();
    const first = podOf(id)?.metadata.name as string;
    w.cluster.kubelet.evict(podOf(id)?.metadata.namespace as string, first);
    await w.caughtUp();
    await w.pass(); // preempting → preempted → queued; the evicted pod is deleted
    const s = await w.state(id);
    expect(s?.state).toBe("queued");
    expect((await events(id)).slice(-3)).toEqual(["preempting", "preempted", "queued"]);
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(id))?.state).toBe("running");
    const pods = w.cluster.api.store
      .list("pods")
      .filter((p) => p.metadata.labels?.["forja.dev/instance"] === id);
    expect(pods.map((p) => p.metadata.name)).not.toContain(first);
    expect(pods).toHaveLength(1);
  });

  it("a spot node reclaimed by the cloud → preempted with the reason, then requeued", async () => {
    const id = await runningSpot("spot-1");
    w.cluster.kubelet.reclaimSpotNode("spot-1");
    await w.caughtUp();
    await w.pass();
    expect((await events(id)).slice(-3)).toEqual(["preempting", "preempted", "queued"]);
    const r = await getDb().execute<{ reason: string }>(
      sql`select reason from instance_events where instance_id = ${id} and to_state = 'preempting'`,
    );
    // The pod is gone by the pass, but the watch kept how it ended: the taint manager's DisruptionTarget.
    expect(r.rows[0]?.reason).toMatch(/^Preempted: its node was tainted out of service .*NoExecute taint/);
  });

  it("a pod that finished and was deleted before the pass looked still counts as finished (stopped, not failed)", async () => {
    const o = await newOrg("k8swatch");
    const spec = { kind: "container", command: "python train.py; exit 0" };
    const id = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, spec))).instance.id;
    await w.pass(); // created; the kubelet binds it
    await w.pass(); // provisioning; the kubelet runs it to completion (Succeeded)
    expect((podOf(id)?.status as { phase?: string } | undefined)?.phase).toBe("Succeeded");
    expect((await w.state(id))?.state).toBe("provisioning");
    // Someone (an operator's kubectl, a TTL controller) deletes the finished pod before Forja's next pass.
    const p = podOf(id);
    w.cluster.api.store.remove("pods", p?.metadata.namespace, p?.metadata.name as string);
    await w.caughtUp();
    await w.pass();
    expect((await events(id)).slice(-3)).toEqual(["running", "stopping", "stopped"]);
  });

  it("reconnects after a dropped connection and after 410 Gone, missing no transition", async () => {
    const id = await runningSpot();
    const watch = w.rt().watch;
    if (!watch) throw new Error("no watch");
    const before = { ...watch.stats };
    w.cluster.api.dropWatches();
    w.cluster.kubelet.evict(podOf(id)?.metadata.namespace as string, podOf(id)?.metadata.name as string);
    await w.caughtUp();
    expect(watch.stats.connects).toBeGreaterThan(before.connects);
    // History compacted while the connection is down: the watch gets ERROR 410 and relists.
    w.cluster.api.store.compact();
    w.cluster.api.dropWatches();
    await w.pass();
    await w.caughtUp();
    expect(watch.stats.gone).toBeGreaterThan(before.gone);
    expect(watch.stats.lists).toBeGreaterThan(before.lists);
    expect((await events(id)).slice(-3)).toEqual(["preempting", "preempted", "queued"]);
  });

  it("transitions made while the worker was down are seen by the restarted one (eviction, a finished command)", async () => {
    const evicted = await runningSpot();
    const o = await newOrg("k8swatch");
    const spec = { kind: "container", command: "python train.py; exit 0" };
    const done = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, spec))).instance.id;
    await w.pass(); // created and bound
    // The worker stops; meanwhile the cluster evicts one pod and the other's command finishes.
    detachKubernetesRegion(w.cfg.region);
    w.cluster.kubelet.evict(
      podOf(evicted)?.metadata.namespace as string,
      podOf(evicted)?.metadata.name as string,
    );
    w.cluster.kubelet.tick();
    expect((podOf(done)?.status as { phase?: string } | undefined)?.phase).toBe("Succeeded");
    w.restartWorker();
    await w.pass();
    expect((await events(evicted)).slice(-3)).toEqual(["preempting", "preempted", "queued"]);
    expect((await events(done)).slice(-4)).toEqual(["provisioning", "running", "stopping", "stopped"]);
  });

  it("a restarted worker garbage-collects pods no instance owns any more (no orphans after a crash)", async () => {
    const id = await runningSpot();
    // The worker "crashes"; meanwhile the instance is terminated in Forja and a stray pod of an unknown instance appears.
    w.cluster.api.store.put("pods", {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "forja-stray",
        namespace: podOf(id)?.metadata.namespace,
        labels: {
          "app.kubernetes.io/managed-by": "forja",
          "forja.dev/region": w.fleet.region,
          "forja.dev/instance": "00000000-0000-4000-8000-000000000000",
        },
      },
      spec: { containers: [{ name: "workload", image: "x" }] },
      status: { phase: "Running" },
    });
    await getDb().execute(sql`update instances set state = 'terminated' where id = ${id}`);
    w.restartWorker();
    await w.pass();
    await w.pass();
    const left = w.cluster.api.store
      .list("pods")
      .filter((p) => p.metadata.name === "forja-stray" || p.metadata.labels?.["forja.dev/instance"] === id);
    expect(left).toEqual([]);
    expect(
      w.cluster.api.store
        .list("persistentvolumeclaims")
        .filter((p) => p.metadata.labels?.["forja.dev/instance"] === id),
    ).toEqual([]);
  });
});
