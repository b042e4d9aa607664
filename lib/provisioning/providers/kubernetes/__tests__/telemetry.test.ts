import { readFileSync } from "node:fs";
import { loadAllYaml } from "@kubernetes/client-node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { launch, stop, terminate } from "@/lib/provisioning";
import { newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { ingestMetrics, instanceLogs } from "@/lib/telemetry";
import { PERMISSION_GROUPS, PROVIDER_PERMISSIONS } from "..";
import { followLogs } from "../logs";
import { H100, k8sWorld } from "./harness";

let w: Awaited<ReturnType<typeof k8sWorld>>;
beforeAll(async () => {
  w = await k8sWorld();
  w.cluster.kubelet.addNode({ name: "gpu-a", product: H100, gpus: 8 });
});
afterAll(() => w.close());

function dcgm(ns: string, pod: string) {
  const l = (gpu: number) =>
    `gpu="${gpu}",UUID="GPU-${gpu}",modelName="NVIDIA H100 80GB HBM3",Hostname="gpu-a",container="workload",namespace="${ns}",pod="${pod}"`;
  return [
    "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge",
    `DCGM_FI_DEV_GPU_UTIL{${l(0)}} 87`,
    `DCGM_FI_DEV_GPU_UTIL{${l(1)}} 41`,
    "# TYPE DCGM_FI_DEV_FB_USED gauge",
    `DCGM_FI_DEV_FB_USED{${l(0)}} 40960`,
    `DCGM_FI_DEV_FB_USED{${l(1)}} 10240`,
    "# TYPE DCGM_FI_DEV_POWER_USAGE gauge",
    `DCGM_FI_DEV_POWER_USAGE{${l(0)}} 612.5`,
    `DCGM_FI_DEV_POWER_USAGE{${l(1)}} 301`,
    "# TYPE DCGM_FI_DEV_GPU_TEMP gauge",
    `DCGM_FI_DEV_GPU_TEMP{${l(0)}} 66`,
    `DCGM_FI_DEV_GPU_TEMP{${l(1)}} 58`,
    "# A GPU used by no pod has no pod label; it is not anyone's.",
    'DCGM_FI_DEV_GPU_UTIL{gpu="7",UUID="GPU-7"} 99',
  ].join("\n");
}

describe("logs, metrics and RBAC through the stand-in", () => {
  it("a 2-GPU container: DCGM samples land in metric_samples; logs tail and follow; all calls are in the Role", async () => {
    const o = await newOrg("k8stel");
    const id = (
      await launch(
        o.ctx,
        o.slug,
        notebookSpec(w.fleet.region, {
          kind: "container",
          instanceType: "h100.2x",
          command: "python train.py",
          diskGib: 20,
        }),
      )
    ).instance.id;
    // A notebook beside it, so the RBAC check below sees every kind of object (service, token secret).
    const nb = (await launch(o.ctx, o.slug, notebookSpec(w.fleet.region))).instance.id;
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(id))?.state).toBe("running");
    expect((await w.state(nb))?.state).toBe("running");
    const pod = w.cluster.api.store
      .list("pods")
      .find((p) => p.metadata.labels?.["forja.dev/instance"] === id);
    if (!pod) throw new Error("no pod");
    const ns = pod.metadata.namespace as string;
    w.dcgm.set(dcgm(ns, pod.metadata.name));

    const now = new Date();
    const r = await ingestMetrics(systemCtx("telemetry"), { now });
    expect(r.inserted).toBeGreaterThanOrEqual(2);
    const rows = await getDb().execute<{
      gpu_index: number;
      utilization_pct: number;
      memory_used_gib: number;
      power_watts: number;
      temperature_c: number;
    }>(
      sql`select gpu_index, utilization_pct, memory_used_gib, power_watts, temperature_c from metric_samples where instance_id = ${id} order by gpu_index`,
    );
    expect(rows.rows).toEqual([
      { gpu_index: 0, utilization_pct: 87, memory_used_gib: 40, power_watts: 612.5, temperature_c: 66 },
      { gpu_index: 1, utilization_pct: 41, memory_used_gib: 10, power_watts: 301, temperature_c: 58 },
    ]);

    // Tail (the console's logs view) and follow.
    w.cluster.api.appendLog(ns, pod.metadata.name, "epoch 1 loss=0.93");
    const logs = await instanceLogs(o.ctx, o.slug, id, { now: new Date(Date.now() + 1000) });
    expect(logs.live).toBe(true);
    expect(logs.lines.map((l) => l.text)).toEqual([
      expect.stringMatching(/^started forja\/pytorch/),
      "epoch 1 loss=0.93",
    ]);
    const followed: string[] = [];
    const ctl = new AbortController();
    const following = followLogs(w.rt(), id, (l) => followed.push(l.text), ctl.signal);
    await new Promise((res) => setTimeout(res, 300));
    w.cluster.api.appendLog(ns, pod.metadata.name, "epoch 2 loss=0.71");
    for (let i = 0; i < 50 && followed.length === 0; i++) await new Promise((res) => setTimeout(res, 20));
    ctl.abort();
    await following;
    expect(followed).toEqual(["epoch 2 loss=0.71"]);

    await stop(o.ctx, o.slug, id);
    await w.pass();
    await w.pass();
    await terminate(o.ctx, o.slug, id);
    await terminate(o.ctx, o.slug, nb);
    await w.pass();
    await w.pass();
    expect((await w.state(id))?.state).toBe("terminated");
    expect(w.cluster.api.store.list("pods")).toEqual([]);

    // RBAC: every verb × resource the provider called (this test file drives each kind of call, sweep included)
    // is granted by the documented ClusterRole, and the Role grants nothing the provider never calls.
    const called = new Set(w.cluster.api.calls.map((c) => `${c.resource}:${c.verb}`));
    type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
    const docs = (
      loadAllYaml(readFileSync("docs/kubernetes/forja-provider-rbac.yaml", "utf8")) as Array<{
        kind: string;
        rules?: Rule[];
      }>
    ).find((d) => d.kind === "ClusterRole") as { rules: Rule[] };
    // One group per rule: the core group, or the group PERMISSION_GROUPS names for the resource (apps).
    expect(
      docs.rules.every(
        (r) =>
          r.apiGroups.length === 1 &&
          r.resources.every((res) => (PERMISSION_GROUPS[res] ?? "") === r.apiGroups[0]),
      ),
    ).toBe(true);
    const granted = new Set(
      docs.rules.flatMap((r) => r.resources.flatMap((res) => r.verbs.map((v) => `${res}:${v}`))),
    );
    const declared = new Set(
      Object.entries(PROVIDER_PERMISSIONS).flatMap(([res, verbs]) => verbs.map((v) => `${res}:${v}`)),
    );
    expect([...called].filter((c) => !granted.has(c))).toEqual([]);
    expect([...granted].sort()).toEqual([...declared].sort());
    // Deployments are created and deleted only for service replicas, which this file does not run: their calls
    // are checked against the Role by lib/services/__tests__/kubernetes-replicas.test.ts.
    expect(
      [...granted].filter((g) => !called.has(g) && g !== "deployments:create" && g !== "deployments:delete"),
    ).toEqual([]);
  });
});
