import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { formatMessage } from "@/lib/notify";
import { launch } from "@/lib/provisioning";
import { newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { allCatalogs } from "@/messages";
import { H100, k8sWorld } from "./harness";

let w: Awaited<ReturnType<typeof k8sWorld>>;
beforeAll(async () => {
  w = await k8sWorld();
  w.cluster.kubelet.addNode({ name: "gpu-a", product: H100, gpus: 8 });
});
afterAll(() => w.close());

async function container(over: Record<string, unknown> = {}) {
  const o = await newOrg("k8sfail");
  const spec = notebookSpec(w.fleet.region, {
    kind: "container",
    image: "pytorch-2.5-cuda12.4",
    command: "python train.py",
    ...over,
  });
  return (await launch(o.ctx, o.slug, spec)).instance.id;
}

describe("failures become clear instance reasons", () => {
  it("CrashLoopBackOff (a notebook that keeps crashing) → failed with the kubelet's reason, pod removed", async () => {
    const o = await newOrg("k8sfail");
    const id = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region))).instance.id;
    await w.pass();
    // Make its container crash: the stand-in's kubelet crashes commands with `exit N`.
    const pod = w.cluster.api.store
      .list("pods")
      .find((p) => p.metadata.labels?.["forja.dev/instance"] === id);
    if (!pod) throw new Error("no pod");
    const spec = pod.spec as { containers: Array<{ command: string[] }> };
    spec.containers[0] = { ...(spec.containers[0] as object), command: ["sh", "-c", "exit 3"] } as never;
    w.cluster.api.store.put("pods", pod);
    await w.caughtUp();
    await w.pass(2);
    await w.pass();
    const s = await w.state(id);
    expect(s?.state).toBe("failed");
    expect(s?.state_reason).toMatch(/^CrashLoopBackOff: back-off/);
  });

  it("an image the registry does not have → ImagePullBackOff → failed with the kubelet's words, pod removed", async () => {
    const id = await container();
    await w.pass();
    const pod = w.cluster.api.store
      .list("pods")
      .find((p) => p.metadata.labels?.["forja.dev/instance"] === id);
    if (!pod) throw new Error("no pod");
    const image = (pod.spec as { containers: Array<{ image: string }> }).containers[0]?.image as string;
    w.cluster.kubelet.missingImages.add(image);
    try {
      await w.pass(2);
      await w.pass();
    } finally {
      w.cluster.kubelet.missingImages.delete(image);
    }
    const s = await w.state(id);
    expect(s?.state).toBe("failed");
    expect(s?.state_reason).toBe(`ImagePullBackOff: Back-off pulling image "${image}"`);
    await w.pass();
    expect(
      w.cluster.api.store.list("pods").filter((p) => p.metadata.labels?.["forja.dev/instance"] === id),
    ).toEqual([]);
  });

  it("a container whose command fails → failed with its exit code; one that finishes → stopped", async () => {
    const bad = await container({ command: "python train.py; exit 2" });
    const good = await container({ command: "python train.py; exit 0" });
    for (let i = 0; i < 3; i++) await w.pass();
    expect(await w.state(bad)).toMatchObject({
      state: "failed",
      state_reason: "The workload failed (exit code 2, Error)",
    });
    expect(await w.state(good)).toMatchObject({ state: "stopped" });
  });

  it("403 and 422 from the API server fail the instance with what the operator must fix", async () => {
    w.cluster.api.injectFault({ verb: "create", resource: "pods", status: 403 });
    const a = await container();
    await w.pass();
    expect(await w.state(a)).toMatchObject({
      state: "failed",
      state_reason: expect.stringMatching(
        /refused Forja's service account to create the pod \(403 Forbidden.*docs\/providers\.md/,
      ),
    });
    w.cluster.api.injectFault({ verb: "create", resource: "pods", status: 422 });
    const b = await container();
    await w.pass();
    expect(await w.state(b)).toMatchObject({
      state: "failed",
      state_reason: expect.stringMatching(/rejected the manifest to create the pod \(422 Invalid/),
    });
  });

  it("500 and a timeout leave it queued with the reason, and the next pass goes on", async () => {
    w.cluster.api.injectFault({ verb: "create", resource: "pods", status: 500 });
    const a = await container();
    await w.pass();
    expect(await w.state(a)).toMatchObject({
      state: "queued",
      state_reason: expect.stringMatching(/API server failed to create the pod \(500.*Forja retries/),
    });
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(a))?.state).toBe("running");
  });

  it("a timeout of the API server is a reason too (the pass does not hang)", async () => {
    const { call } = await import("../client");
    w.cluster.api.injectFault({ verb: "list", resource: "nodes", status: "timeout" });
    const t = Date.now();
    await expect(call("list nodes", () => w.rt().api.listNode({}), 300)).rejects.toThrow(
      /did not answer within 0.3 s to list nodes; Forja retries/,
    );
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it("409 on create (a pod left by a worker that crashed before committing) is taken as done", async () => {
    const a = await container();
    await w.pass(); // creates the pod
    // The same objects created again (the crashed worker's retry): AlreadyExists everywhere, no error.
    const { applyWorkload } = await import("../apply");
    const { loadRegionInstances } = await import("../records");
    const { getDb } = await import("@/lib/db/client");
    const [inst] = await loadRegionInstances(
      getDb(),
      w.fleet.region,
      () => [H100],
      ["queued", "provisioning"],
      [a],
    );
    if (!inst) throw new Error("instance not found");
    await applyWorkload(w.rt().api, w.cfg, inst, new Set());
    expect(
      w.cluster.api.store.list("pods").filter((p) => p.metadata.labels?.["forja.dev/instance"] === a),
    ).toHaveLength(1);
    expect(w.cluster.api.invalid).toEqual([]);
  });

  it("the timeline stores the cluster's transitions as reason codes, worded in the reader's language", async () => {
    const bad = await container({ command: "python train.py; exit 2" });
    const good = await container({ command: "python train.py; exit 0" });
    for (let i = 0; i < 3; i++) await w.pass();
    const events = async (id: string) =>
      (
        await getDb().execute<{ to_state: string; reason_code: string | null; reason_params: object | null }>(
          sql`select to_state, reason_code, reason_params from instance_events where instance_id = ${id} order by at, id`,
        )
      ).rows;
    const failed = (await events(bad)).find((e) => e.to_state === "failed");
    expect(failed).toMatchObject({
      reason_code: "workload_exited_reason",
      reason_params: { exitCode: 2, detail: "Error" },
    });
    const es = allCatalogs.es.Instances.timeline.reasons;
    expect(formatMessage("es", es.workload_exited_reason, { exitCode: 2, detail: "Error" })).toBe(
      "La carga de trabajo falló (código de salida 2, Error)",
    );
    const done = await events(good);
    expect(done.map((e) => e.reason_code)).toEqual(
      expect.arrayContaining(["workload_up", "command_finished", "command_succeeded"]),
    );
    // Every transition the pass wrote has a code: none is an English sentence only.
    expect([...done, ...(await events(bad))].filter((e) => !e.reason_code)).toEqual([]);
  });

  it("a create the API server never answers leaves the instance queued with the timeout in words (10 s a call)", async () => {
    w.cluster.api.injectFault({ verb: "create", resource: "pods", status: "timeout" });
    const a = await container();
    const t = Date.now();
    await w.pass();
    expect(Date.now() - t).toBeLessThan(20_000);
    expect(await w.state(a)).toMatchObject({
      state: "queued",
      state_reason: "The cluster's API server did not answer within 10 s to create the pod; Forja retries",
    });
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(a))?.state).toBe("running");
  });

  it("cordoned and NotReady nodes become draining and down in Forja's fleet; a node that vanished goes down", async () => {
    w.cluster.kubelet.addNode({ name: "gpu-cordoned", product: H100, gpus: 8, unschedulable: true });
    w.cluster.kubelet.addNode({ name: "gpu-notready", product: H100, gpus: 8, ready: false });
    await w.pass();
    const status = async () =>
      Object.fromEntries(
        (
          await getDb().execute<{ name: string; status: string }>(
            sql`select name, status from nodes where region_code = ${w.fleet.region} and name like ${`${w.fleet.region}/%`}`,
          )
        ).rows.map((r) => [r.name.split("/")[1], r.status]),
      );
    expect(await status()).toMatchObject({
      "gpu-a": "active",
      "gpu-cordoned": "draining",
      "gpu-notready": "down",
    });
    w.cluster.api.store.remove("nodes", undefined, "gpu-cordoned");
    await w.pass();
    expect((await status())["gpu-cordoned"]).toBe("down");
    w.cluster.api.store.remove("nodes", undefined, "gpu-notready");
  });
});
