import { randomBytes } from "node:crypto";
import type { CoreV1Api } from "@kubernetes/client-node";
import { call, KubeApiError } from "./client";
import type { KubernetesRegionConfig } from "./config";
import { buildManifests, TOKEN_KEY, tokenSecret, type WorkloadSpec } from "./manifests";
import { namespaceFor, objectNames } from "./names";

/** Create, treating AlreadyExists as done: names derive from the instance, so a retried create is the same object. */
async function ensure(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await call(what, fn);
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 409) return;
    throw err;
  }
}

/** Delete, treating NotFound as done. */
async function remove(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await call(what, fn);
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 404) return;
    throw err;
  }
}

/** Everything one run needs, in dependency order: namespace, token secret, disk, service, then the pod. */
export async function applyWorkload(
  api: CoreV1Api,
  cfg: KubernetesRegionConfig,
  w: WorkloadSpec,
  knownNamespaces: Set<string>,
): Promise<void> {
  const m = buildManifests(cfg, w);
  const ns = m.namespace.metadata?.name as string;
  if (!knownNamespaces.has(ns)) {
    try {
      await call("read the namespace", () => api.readNamespace({ name: ns }));
    } catch (err) {
      if (!(err instanceof KubeApiError && err.code === 404)) throw err;
      await ensure("create the namespace", () => api.createNamespace({ body: m.namespace as never }));
    }
    knownNamespaces.add(ns);
  }
  if (w.kind === "notebook") {
    const token = randomBytes(24).toString("hex");
    await ensure("create the notebook token secret", () =>
      api.createNamespacedSecret({ namespace: ns, body: tokenSecret(cfg, w, token) as never }),
    );
  }
  if (m.pvc) {
    const pvc = m.pvc;
    await ensure("create the disk (PVC)", () =>
      api.createNamespacedPersistentVolumeClaim({ namespace: ns, body: pvc as never }),
    );
  }
  if (m.service) {
    const svc = m.service;
    await ensure("create the service", () =>
      api.createNamespacedService({ namespace: ns, body: svc as never }),
    );
  }
  await ensure("create the pod", () => api.createNamespacedPod({ namespace: ns, body: m.pod as never }));
}

export async function readNotebookToken(
  api: CoreV1Api,
  cfg: KubernetesRegionConfig,
  w: WorkloadSpec,
): Promise<string> {
  const s = await call("read the notebook token", () =>
    api.readNamespacedSecret({
      name: objectNames(w.instanceId, w.run).secret,
      namespace: namespaceFor(cfg, w.orgSlug, w.projectSlug),
    }),
  );
  const b64 = s.data?.[TOKEN_KEY];
  return b64 ? Buffer.from(b64, "base64").toString("utf8") : (s.stringData?.[TOKEN_KEY] ?? "");
}

export async function deletePod(api: CoreV1Api, namespace: string, name: string): Promise<void> {
  await remove("delete the pod", () => api.deleteNamespacedPod({ name, namespace }));
}

/** Stop: the pod, its service and token go; the disk stays (keepDisk). Terminate: the disk goes too. */
export async function deleteWorkload(
  api: CoreV1Api,
  cfg: KubernetesRegionConfig,
  w: WorkloadSpec,
  opts: { keepDisk: boolean },
): Promise<void> {
  const ns = namespaceFor(cfg, w.orgSlug, w.projectSlug);
  const names = objectNames(w.instanceId, w.run);
  await deletePod(api, ns, names.pod);
  await remove("delete the service", () =>
    api.deleteNamespacedService({ name: names.service, namespace: ns }),
  );
  await remove("delete the token secret", () =>
    api.deleteNamespacedSecret({ name: names.secret, namespace: ns }),
  );
  if (!opts.keepDisk) {
    await remove("delete the disk (PVC)", () =>
      api.deleteNamespacedPersistentVolumeClaim({ name: names.pvc, namespace: ns }),
    );
  }
}
