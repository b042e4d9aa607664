import * as apps from "kubernetes-models/apps/v1";
import * as models from "kubernetes-models/v1";

/** A Kubernetes object as stored: plain JSON, always with metadata. */
export type KObject = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    resourceVersion?: string;
    uid?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    generation?: number;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
    }>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
};

export type WatchEvent = {
  type: "ADDED" | "MODIFIED" | "DELETED";
  rv: number;
  resource: string;
  object: KObject;
};

/**
 * The kinds this stand-in serves (core/v1, and apps/v1 Deployments), with the schema class each received object
 * is validated by and the API group path they live under.
 */
type Model = new (o: object) => { validate(): void };
export const KINDS: Record<string, { kind: string; model: Model; group?: "apps" }> = {
  deployments: { kind: "Deployment", model: apps.Deployment as unknown as Model, group: "apps" },
  pods: { kind: "Pod", model: models.Pod as unknown as Model },
  services: { kind: "Service", model: models.Service as unknown as Model },
  persistentvolumeclaims: {
    kind: "PersistentVolumeClaim",
    model: models.PersistentVolumeClaim as unknown as Model,
  },
  secrets: { kind: "Secret", model: models.Secret as unknown as Model },
  namespaces: { kind: "Namespace", model: models.Namespace as unknown as Model },
  nodes: { kind: "Node", model: models.Node as unknown as Model },
};

export function matchesSelector(obj: KObject, selector: string | null): boolean {
  if (!selector) return true;
  const labels = obj.metadata.labels ?? {};
  return selector.split(",").every((term) => {
    const [k, v] = term.split("=");
    return k !== undefined && labels[k] === v;
  });
}

/**
 * The etcd of the stand-in: objects by resource/namespace/name, one global resourceVersion counter and the
 * event history watches replay from. `compact()` forgets history, so an old resourceVersion gets 410 Gone.
 */
export class ObjectStore {
  private objects = new Map<string, KObject>();
  private history: WatchEvent[] = [];
  private rv = 100;
  compactedBelow = 0;
  private listeners = new Set<(e: WatchEvent) => void>();

  key(resource: string, ns: string | undefined, name: string): string {
    return `${resource}/${ns ?? ""}/${name}`;
  }
  get(resource: string, ns: string | undefined, name: string): KObject | undefined {
    return this.objects.get(this.key(resource, ns, name));
  }
  list(resource: string, ns?: string, selector: string | null = null): KObject[] {
    return [...this.objects.entries()]
      .filter(([k, o]) => k.startsWith(`${resource}/`) && (ns === undefined || o.metadata.namespace === ns))
      .map(([, o]) => o)
      .filter((o) => matchesSelector(o, selector));
  }
  currentRv(): number {
    return this.rv;
  }
  put(resource: string, obj: KObject): KObject {
    const k = this.key(resource, obj.metadata.namespace, obj.metadata.name);
    const type = this.objects.has(k) ? "MODIFIED" : "ADDED";
    this.rv++;
    const stored: KObject = structuredClone({
      ...obj,
      metadata: { ...obj.metadata, resourceVersion: String(this.rv) },
    });
    this.objects.set(k, stored);
    this.emit({ type, rv: this.rv, resource, object: stored });
    return stored;
  }
  remove(resource: string, ns: string | undefined, name: string): KObject | undefined {
    const k = this.key(resource, ns, name);
    const obj = this.objects.get(k);
    if (!obj) return undefined;
    this.objects.delete(k);
    this.rv++;
    const gone = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.rv) } };
    this.emit({ type: "DELETED", rv: this.rv, resource, object: gone });
    return gone;
  }
  /** Events after `rv` for a resource; null when that history was compacted away (410 Gone). */
  since(resource: string, rv: number): WatchEvent[] | null {
    if (rv < this.compactedBelow) return null;
    return this.history.filter((e) => e.resource === resource && e.rv > rv);
  }
  /** Forget history: all of it (even the current version is too old then), or up to `upTo` as etcd does. */
  compact(upTo?: number): void {
    if (upTo === undefined) {
      this.compactedBelow = this.rv + 1;
      this.history = [];
      return;
    }
    this.compactedBelow = upTo;
    this.history = this.history.filter((e) => e.rv > upTo);
  }
  subscribe(fn: (e: WatchEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  private emit(e: WatchEvent) {
    this.history.push(e);
    for (const fn of this.listeners) fn(e);
  }
}
