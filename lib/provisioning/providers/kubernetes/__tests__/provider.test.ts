import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { getInstance, launch, reconcileInstances, stop, terminate } from "@/lib/provisioning";
import { bigQuota, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { allCatalogs } from "@/messages";
import { instanceManifests, manifestsYaml, REDACTED } from "..";
import { H100, k8sWorld } from "./harness";

let w: Awaited<ReturnType<typeof k8sWorld>>;
beforeAll(async () => {
  w = await k8sWorld({ productModels: { [H100]: "h100" } });
  w.cluster.kubelet.addNode({ name: "gpu-a", product: H100, gpus: 8, region: "eu-west", zone: "eu-west-a" });
  w.cluster.kubelet.addNode({
    name: "gpu-mig",
    product: H100,
    gpus: 6,
    physicalGpus: 8,
    mig: { "1g.10gb": 14 },
  });
});
afterAll(() => w.close());

const pods = () => w.cluster.api.store.list("pods");

describe("the Kubernetes provider against the API server stand-in", () => {
  it("discovers GPU nodes into the fleet", async () => {
    const r = await w.pass();
    expect(r.nodes).toBe(2);
    expect(r.errors).toEqual([]);
  });

  it("launches a notebook: queued → provisioning → running with a URL, then stop keeps the disk, terminate deletes it", async () => {
    const o = await newOrg("k8s");
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, { diskGib: 50 }));
    expect((await w.state(instance.id))?.state).toBe("queued");
    await w.pass(); // creates namespace, secret, PVC, service, pod; the kubelet binds it
    expect(pods()).toHaveLength(1);
    await w.pass(); // sees it scheduled → provisioning; the kubelet starts it
    await w.pass(); // sees it running
    const s = await w.state(instance.id);
    expect(s?.state).toBe("running");
    expect(s?.node_id).not.toBeNull();
    expect(s?.connection?.url).toMatch(
      /^http:\/\/forja-[0-9a-f]{12}\.forja-.*\.svc:8888\/lab\?token=[0-9a-f]{48}$/,
    );
    expect(w.cluster.api.store.list("persistentvolumeclaims")).toHaveLength(1);
    expect(w.cluster.api.invalid).toEqual([]);

    await stop(o.ctx, o.slug, instance.id);
    await w.pass(); // deletes pod, service, secret; the kubelet ends the pod
    await w.pass();
    expect((await w.state(instance.id))?.state).toBe("stopped");
    expect(pods()).toHaveLength(0);
    expect(w.cluster.api.store.list("services")).toHaveLength(0);
    expect(w.cluster.api.store.list("persistentvolumeclaims")).toHaveLength(1);

    await terminate(o.ctx, o.slug, instance.id);
    await w.pass();
    expect((await w.state(instance.id))?.state).toBe("terminated");
    expect(w.cluster.api.store.list("persistentvolumeclaims")).toHaveLength(0);
  });

  it("the shared reconcile pass keeps a launch's maximum runtime here too: stopping, then the pod is deleted", async () => {
    const o = await newOrg("k8smax");
    const spec = notebookSpec(w.fleet.region, {
      kind: "container",
      command: "python train.py",
      maxRuntimeMinutes: 5,
    });
    const id = (await launch(o.ctx, o.slug, spec)).instance.id;
    for (let i = 0; i < 3; i++) await w.pass();
    expect((await w.state(id))?.state).toBe("running");
    const mine = () => pods().filter((p) => p.metadata.labels?.["forja.dev/instance"] === id);
    expect(mine()).toHaveLength(1);
    // Not yet over its limit: nothing happens.
    await reconcileInstances(systemCtx("provider"), { regionCode: w.fleet.region });
    expect((await w.state(id))?.state).toBe("running");
    // Six minutes into a five-minute limit (its start moved back instead of the clock forward).
    await getDb().execute(
      sql`update instances set started_at = started_at - interval '6 minutes' where id = ${id}`,
    );
    const r = await reconcileInstances(systemCtx("provider"), { regionCode: w.fleet.region });
    expect(r.maxRuntimeStops).toBe(1);
    expect((await w.state(id))?.state).toBe("stopping");
    await w.pass();
    await w.pass();
    expect(await w.state(id)).toMatchObject({
      state: "stopped",
      state_reason: "Stopped after its maximum runtime of 5 minutes",
    });
    expect(mine()).toEqual([]);
  });

  it("shows PodScheduled=False as the queued reason, in words", async () => {
    const o = await newOrg("k8s");
    await bigQuota(o.org.id, w.fleet.region);
    const { instance } = await launch(
      o.ctx,
      o.slug,
      notebookSpec(w.fleet.region, { instanceType: "h100.8x" }),
    );
    const other = await launch(o.ctx, o.slug, notebookSpec(w.fleet.region, { instanceType: "h100.8x" }));
    for (let i = 0; i < 3; i++) await w.pass();
    const states = [await w.state(instance.id), await w.state(other.instance.id)];
    const queued = states.find((s) => s?.state === "queued");
    expect(states.map((s) => s?.state).sort()).toEqual(["queued", "running"]);
    // A catalog code with the resource and the scheduler's words: the console says it in en or es.
    expect(queued?.state_reason).toBeNull();
    expect(queued?.queue_reason).toEqual({
      code: "cluster_insufficient",
      params: { resource: "nvidia.com/gpu", detail: expect.stringMatching(/^0\/2 nodes are available/) },
    });
    const words = (locale: "en" | "es") =>
      createTranslator({ locale, messages: allCatalogs[locale], namespace: "QueueReasons" })(
        "cluster_insufficient",
        queued?.queue_reason?.params,
      );
    expect(words("en")).toMatch(
      /^Waiting for the cluster: no node has a free nvidia\.com\/gpu right now\. .*0\/2 nodes/,
    );
    expect(words("es")).toMatch(
      /^Esperando al clúster: ahora mismo ningún nodo tiene libre nvidia\.com\/gpu\. .*0\/2 nodes/,
    );
    await terminate(o.ctx, o.slug, instance.id);
    await terminate(o.ctx, o.slug, other.instance.id);
    await w.pass();
    await w.pass();
    expect(pods()).toHaveLength(0);
  });

  it("never shows the notebook token to viewers; exports the manifests it applies to admins without it; viewers are refused, other orgs 404", async () => {
    const o = await newOrg("k8s");
    await bigQuota(o.org.id, w.fleet.region);
    const { instance } = await launch(o.ctx, o.slug, notebookSpec(w.fleet.region));
    for (let i = 0; i < 3; i++) await w.pass();
    const token = (await w.state(instance.id))?.connection?.token;
    expect(token).toBeTruthy();
    // The notebook URL carries the token: members see it, viewers get no connection at all.
    expect((await getInstance(await o.as("member"), o.slug, instance.id)).instance.connection?.url).toContain(
      token,
    );
    const seen = await getInstance(await o.as("viewer"), o.slug, instance.id);
    expect(seen.instance.state).toBe("running");
    expect(seen.instance.connection).toBeNull();
    expect(JSON.stringify(seen)).not.toContain(token);
    const e = await instanceManifests(o.ctx, o.slug, instance.id, { regions: [w.cfg] });
    expect(e.objects.map((x) => x.kind)).toEqual(
      expect.arrayContaining(["Namespace", "Secret", "Service", "Pod"]),
    );
    const yaml = manifestsYaml(e);
    expect(yaml).toContain("kind: Pod");
    expect(yaml).toContain(REDACTED);
    expect(JSON.stringify(e)).not.toContain(token);
    expect(yaml).not.toContain(token);
    await expect(
      instanceManifests(await o.as("viewer"), o.slug, instance.id, { regions: [w.cfg] }),
    ).rejects.toThrow(/admin role/);
    await expect(
      instanceManifests(await o.as("member"), o.slug, instance.id, { regions: [w.cfg] }),
    ).rejects.toThrow(/admin role/);
    const other = await newOrg("k8s-other");
    await expect(instanceManifests(other.ctx, other.slug, instance.id, { regions: [w.cfg] })).rejects.toThrow(
      /not found/i,
    );
    await terminate(o.ctx, o.slug, instance.id);
    await w.pass();
    await w.pass();
  });
});
