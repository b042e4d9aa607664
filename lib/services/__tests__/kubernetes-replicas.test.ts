import { readFileSync } from "node:fs";
import { loadAllYaml } from "@kubernetes/client-node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { meterUsage } from "@/lib/metering/meter";
import { bigQuota } from "@/lib/provisioning/__tests__/fixtures";
import { instanceManifests, syncKubernetesRegion } from "@/lib/provisioning/providers/kubernetes";
import { H100, k8sWorld } from "@/lib/provisioning/providers/kubernetes/__tests__/harness";
import {
  autoscaleServices,
  createReplicaHost,
  createService,
  deleteService,
  type Gateway,
  startGateway,
  updateServiceScaling,
} from "@/lib/services";
import { newOrg } from "@/test/factories";
import { runLoops, waitFor } from "./harness";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let w: Awaited<ReturnType<typeof k8sWorld>>;
let gateway: Gateway;
let host: ReturnType<typeof createReplicaHost>;
let stopLoops: () => Promise<void>;

beforeAll(async () => {
  w = await k8sWorld({ productModels: { [H100]: "h100" } });
  w.cluster.kubelet.addNode({ name: "gpu-a", product: H100, gpus: 8 });
  w.cluster.kubelet.serverColdStartMs = 800;
  await w.pass(); // discovery
  gateway = await startGateway({ holdTimeoutMs: 60_000, refreshMs: 150 });
  host = createReplicaHost({ regionCode: w.fleet.region });
  stopLoops = runLoops([
    [250, () => syncKubernetesRegion(systemCtx("provider"), w.rt(), { backoffMinMs: 20 })],
    [150, async () => w.cluster.kubelet.tick()],
    [200, () => host.pass()],
    [1000, () => autoscaleServices(systemCtx("autoscaler"), { regionCode: w.fleet.region })],
  ]);
});
afterAll(async () => {
  await stopLoops?.();
  await gateway?.close();
  await host?.close();
  await w?.close();
});

type Replica = {
  instance_id: string;
  ended_at: string | null;
  ready_at: string | null;
  endpoint: string | null;
  state: string;
};
async function replicas(serviceId: string): Promise<Replica[]> {
  const r = await getDb().execute<Replica>(sql`
    select r.instance_id, r.ended_at, r.ready_at, r.endpoint, i.state::text as state
    from service_replicas r join instances i on i.id = r.instance_id
    where r.service_id = ${serviceId} order by r.ordinal`);
  return r.rows;
}

type KObj = {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: Array<{ kind: string; name: string }>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};
const deployments = (serviceId: string) =>
  (w.cluster.api.store.list("deployments") as KObj[]).filter(
    (d) => d.metadata.labels?.["forja.dev/service"] === serviceId,
  );
const podsOf = (serviceId: string) =>
  (w.cluster.api.store.list("pods") as KObj[]).filter(
    (p) => p.metadata.labels?.["forja.dev/service"] === serviceId,
  );

describe("services on Kubernetes: a replica is a Deployment with the instance's GPU request", () => {
  it("scales 0 → 1 on a request answered by the pod through the gateway, to 2, back down, and deletion leaves nothing", async () => {
    const org = await newOrg("k8s-svc", { now: () => new Date(), advance: () => {}, set: () => {} } as never);
    await bigQuota(org.org.id, w.fleet.region);
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const ctx = { ...org.ctx, now: () => new Date() };
    const { service } = await createService(ctx, org.slug, {
      name: `chat-${Math.random().toString(36).slice(2, 8)}`,
      image: "pytorch-2.5-cuda12.4",
      command: "python3 -m vllm.entrypoints.openai.api_server",
      instanceType: "h100.1x",
      region: w.fleet.region,
      port,
      minReplicas: 0,
      maxReplicas: 2,
      metric: "concurrency",
      target: 4,
      scaleUpDelaySeconds: 0,
      scaleDownDelaySeconds: 2,
      scaleToZeroGraceSeconds: 5,
      readiness: { path: "/health", intervalSeconds: 1, timeoutSeconds: 1 },
      auth: "public",
    });
    expect(await replicas(service.id)).toEqual([]);
    expect(deployments(service.id)).toEqual([]);

    // A request to a service at zero is held while the Deployment's pod is scheduled, starts and gets ready;
    // the answer comes from the pod's server (the model server on the pod's address).
    const res = await fetch(`${gateway.url}/${org.slug}/s/${service.name}/v1/completions`, {
      method: "POST",
      body: JSON.stringify({ prompt: "hola" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { replica: string; path: string };
    expect(body.path).toBe("/v1/completions");
    const [first] = await replicas(service.id);
    expect(first?.ready_at).not.toBeNull();
    expect(first?.state).toBe("running");

    // The cluster side: one Deployment (replicas 1, Recreate) whose template requests the instance's GPU with
    // the service's readiness probe, labelled with the service; its one pod is the one that answered.
    const [dep] = deployments(service.id);
    expect(deployments(service.id)).toHaveLength(1);
    const dspec = dep?.spec as {
      replicas: number;
      strategy: { type: string };
      template: {
        metadata: { labels: Record<string, string> };
        spec: {
          restartPolicy: string;
          securityContext: { runAsNonRoot: boolean };
          containers: Array<{
            ports: Array<{ containerPort: number }>;
            resources: { limits: Record<string, string> };
            readinessProbe: { httpGet: { path: string; port: string }; periodSeconds: number };
            securityContext: { allowPrivilegeEscalation: boolean };
          }>;
        };
      };
    };
    expect(dspec.replicas).toBe(1);
    expect(dspec.strategy.type).toBe("Recreate");
    expect(dspec.template.metadata.labels).toMatchObject({
      "forja.dev/service": service.id,
      "forja.dev/service-name": service.name,
      "forja.dev/instance": first?.instance_id,
      "forja.dev/org": org.org.id,
      "forja.dev/project": "default",
    });
    const c = dspec.template.spec.containers[0];
    expect(c?.resources.limits["nvidia.com/gpu"]).toBe("1");
    expect(c?.readinessProbe).toMatchObject({ httpGet: { path: "/health", port: "http" }, periodSeconds: 1 });
    expect(c?.ports[0]?.containerPort).toBe(port);
    expect(c?.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(dspec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(dspec.template.spec.restartPolicy).toBe("Always");
    const [pod] = podsOf(service.id);
    expect(podsOf(service.id)).toHaveLength(1);
    expect(pod?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: "Deployment",
      name: dep?.metadata.name,
    });
    expect(body.replica).toBe(pod?.metadata.name);
    const podIP = (pod?.status as { podIP?: string } | undefined)?.podIP;
    expect(podIP).toMatch(/^127\.77\./);
    expect(first?.endpoint).toBe(`http://${podIP}:${port}`);
    // No per-replica Service object: the gateway addresses each pod.
    expect(w.cluster.api.store.list("services")).toEqual([]);
    // The manifests an admin reviews are the ones applied: the namespace, the replica's disk (the instance's,
    // deleted with it) and the Deployment.
    const exported = await instanceManifests(org.ctx, org.slug, first?.instance_id as string, {
      regions: [w.cfg],
    });
    expect(exported.objects.map((o) => o.kind)).toEqual(["Namespace", "PersistentVolumeClaim", "Deployment"]);
    expect((exported.objects[2] as { spec: unknown }).spec).toEqual(dep?.spec);

    // Two replicas: two Deployments, two pods on their own addresses, both answering.
    await updateServiceScaling(ctx, org.slug, service.id, { minReplicas: 2 });
    const two = await waitFor(
      "two ready replicas",
      async () => {
        const live = (await replicas(service.id)).filter((r) => !r.ended_at && r.ready_at);
        return live.length === 2 ? live : null;
      },
      60_000,
    );
    expect(new Set(two.map((r) => r.endpoint)).size).toBe(2);
    for (const r of two) expect((await fetch(`${r.endpoint}/health`)).status).toBe(200);
    expect(deployments(service.id)).toHaveLength(2);
    expect(podsOf(service.id).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(2);

    // Metering bills whole seconds (segments.ts floors state changes to the second): the replica scaled away
    // next must have run past a second boundary to appear in the ledger below. On a quiet machine the scale-down
    // came within the same second as its start (seen in CI), and the check below failed.
    await waitFor(
      "both replicas running for over a second",
      async () => {
        const r = await getDb().execute<{ n: number }>(sql`
          select count(*)::int as n from service_replicas r join instances i on i.id = r.instance_id
          where r.service_id = ${service.id} and r.ended_at is null and i.state = 'running'
            and (select max(e.at) from instance_events e where e.instance_id = i.id and e.to_state = 'running')
              < now() - interval '1.2 seconds'`);
        return Number(r.rows[0]?.n) === 2;
      },
      10_000,
    );
    // Scale down to one: one replica's instance is terminated, its Deployment and pod go.
    await updateServiceScaling(ctx, org.slug, service.id, { minReplicas: 1, maxReplicas: 1 });
    await waitFor(
      "one replica, one Deployment, one pod",
      async () => {
        const live = (await replicas(service.id)).filter((r) => !r.ended_at);
        return live.length === 1 && deployments(service.id).length === 1 && podsOf(service.id).length === 1;
      },
      60_000,
    );
    const removed = (await replicas(service.id)).find((r) => r.ended_at);
    await waitFor("the removed replica's instance terminated", async () => {
      const r = (await replicas(service.id)).find((x) => x.instance_id === removed?.instance_id);
      return r?.state === "terminated";
    });
    await expect(fetch(`${removed?.endpoint}/health`)).rejects.toThrow();

    // Deleting the service ends its last replica: no Deployment, no pod, no server left.
    await deleteService(ctx, org.slug, service.id);
    await waitFor(
      "every replica terminated and nothing left in the cluster",
      async () => {
        const all = await replicas(service.id);
        return (
          all.every((r) => r.ended_at && r.state === "terminated") &&
          deployments(service.id).length === 0 &&
          podsOf(service.id).length === 0
        );
      },
      60_000,
    );
    expect(w.cluster.kubelet.podServers().size).toBe(0);
    expect(w.cluster.api.store.list("persistentvolumeclaims")).toEqual([]);
    expect(w.cluster.api.invalid).toEqual([]);

    // Metering bills each replica as the instance it is.
    const all = await replicas(service.id);
    await meterUsage(systemCtx("metering"), {
      now: new Date(Date.now() + 3 * 3600_000),
      orgIds: [org.org.id],
    });
    const billed = await getDb().execute<{ instance_id: string }>(sql`
      select distinct instance_id from usage_records
      where org_id = ${org.org.id} and kind = 'compute' and seconds > 0`);
    expect(new Set(billed.rows.map((r) => r.instance_id))).toEqual(new Set(all.map((r) => r.instance_id)));

    // RBAC: the Deployment calls are granted by the documented ClusterRole's apps rule, and all of it is used.
    type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
    const role = (
      loadAllYaml(readFileSync("docs/kubernetes/forja-provider-rbac.yaml", "utf8")) as Array<{
        kind: string;
        rules?: Rule[];
      }>
    ).find((d) => d.kind === "ClusterRole") as { rules: Rule[] };
    const apps = role.rules.find((r) => r.apiGroups[0] === "apps");
    const called = new Set(
      w.cluster.api.calls.filter((x) => x.resource === "deployments").map((x) => x.verb),
    );
    expect([...called].sort()).toEqual([...(apps?.verbs ?? [])].sort());
    expect(apps?.resources).toEqual(["deployments"]);
  });

  it("a replica whose node is reclaimed is preempted (not adopted onto its Deployment's next pod), and replaced by a new one", async () => {
    w.cluster.kubelet.addNode({ name: "gpu-b", product: H100, gpus: 8 });
    const org = await newOrg("k8s-svc2", {
      now: () => new Date(),
      advance: () => {},
      set: () => {},
    } as never);
    await bigQuota(org.org.id, w.fleet.region);
    const ctx = { ...org.ctx, now: () => new Date() };
    const { service } = await createService(ctx, org.slug, {
      name: `emb-${Math.random().toString(36).slice(2, 8)}`,
      image: "pytorch-2.5-cuda12.4",
      command: "python3 serve.py",
      instanceType: "h100.1x",
      region: w.fleet.region,
      port: 20_000 + Math.floor(Math.random() * 30_000),
      minReplicas: 1,
      maxReplicas: 1,
      readiness: { path: "/health", intervalSeconds: 1, timeoutSeconds: 1 },
      auth: "public",
    });
    const [first] = await waitFor(
      "a ready replica",
      async () => {
        const live = (await replicas(service.id)).filter((r) => !r.ended_at && r.ready_at);
        return live.length === 1 ? live : null;
      },
      60_000,
    );
    const [pod] = podsOf(service.id);
    const node = (pod?.spec as { nodeName?: string } | undefined)?.nodeName ?? "";
    const oldDeployment = deployments(service.id)[0]?.metadata.name;

    // The cloud takes the node back: the pod goes at once. The Deployment would make a new pod on the other
    // node, but that pod is not the instance that ran and was billed: the instance is preempted and its
    // Deployment deleted; the autoscaler launches a new replica (a new instance, admitted again).
    w.cluster.kubelet.reclaimSpotNode(node);
    await waitFor(
      "the lost replica preempted, its Deployment gone, a new replica ready",
      async () => {
        const all = await replicas(service.id);
        const old = all.find((r) => r.instance_id === first?.instance_id);
        const fresh = all.filter((r) => r.instance_id !== first?.instance_id && !r.ended_at && r.ready_at);
        return (
          old?.state === "preempted" &&
          old.ended_at &&
          fresh.length === 1 &&
          !deployments(service.id).some((d) => d.metadata.name === oldDeployment)
        );
      },
      60_000,
    );
    expect(deployments(service.id)).toHaveLength(1);
    const pods = podsOf(service.id).filter((p) => !p.metadata.deletionTimestamp);
    expect(pods).toHaveLength(1);
    expect(pods[0]?.metadata.labels?.["forja.dev/instance"]).not.toBe(first?.instance_id);
    const res = await fetch(`${gateway.url}/${org.slug}/s/${service.name}/v1/embeddings`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { replica: string }).replica).toBe(pods[0]?.metadata.name);

    await deleteService(ctx, org.slug, service.id);
    await waitFor(
      "nothing left in the cluster",
      async () => deployments(service.id).length === 0 && podsOf(service.id).length === 0,
      60_000,
    );
  });
});
