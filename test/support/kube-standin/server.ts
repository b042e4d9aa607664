import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { KINDS, type KObject, matchesSelector, ObjectStore } from "./store";

export type Verb = "get" | "list" | "watch" | "create" | "delete" | "update";
export type Call = { verb: Verb; resource: string; at: number };
export type Fault = {
  verb?: Verb;
  resource?: string;
  /** "timeout": never answered; "close": a 200 whose body ends at once (a proxy cutting a watch). */
  status: 403 | 409 | 410 | 422 | 500 | "timeout" | "close";
  times?: number;
};
type LogLine = { at: Date; text: string };

function status(res: ServerResponse, code: number, reason: string, message: string) {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      code,
    }),
  );
}
function json(res: ServerResponse, code: number, body: unknown) {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}
const REASONS: Record<number, string> = {
  403: "Forbidden",
  409: "AlreadyExists",
  410: "Expired",
  422: "Invalid",
  500: "InternalError",
};

/**
 * A stand-in for the Kubernetes API server (core/v1 only): the real paths, verbs, status codes and Status
 * bodies, resourceVersion on every write, list+watch with BOOKMARK and ERROR 410 Gone after compaction, and the
 * pod log endpoint. Every object it receives is validated against the Kubernetes schemas (kubernetes-models),
 * and a wrong one is answered 422 as the real server would. It is not an API server: no admission, no RBAC
 * enforcement (calls are recorded so tests can compare them to the Role), no field selectors beyond none.
 */
export class KubeApiStandIn {
  readonly store = new ObjectStore();
  readonly calls: Call[] = [];
  readonly invalid: string[] = [];
  private faults: Fault[] = [];
  private logs = new Map<string, LogLine[]>();
  private followers = new Map<string, Set<ServerResponse>>();
  private watches = new Set<ServerResponse>();
  private server: Server | null = null;
  bookmarkMs = 200;
  url = "";

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => status(res, 500, "InternalError", String(err)));
    });
    await new Promise<void>((r) => this.server?.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }
  async stop(): Promise<void> {
    this.dropWatches();
    for (const set of this.followers.values()) for (const r of set) r.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
  /** Cut every open watch connection (the network dropped, the API server restarted). */
  dropWatches(): void {
    for (const w of this.watches) w.destroy();
    this.watches.clear();
  }
  injectFault(f: Fault): void {
    this.faults.push({ times: 1, ...f });
  }
  clearFaults(): void {
    this.faults = [];
  }
  appendLog(ns: string, pod: string, text: string, at = new Date()): void {
    const key = `${ns}/${pod}`;
    const lines = this.logs.get(key) ?? [];
    lines.push({ at, text });
    this.logs.set(key, lines);
    for (const r of this.followers.get(key) ?? []) r.write(`${at.toISOString()} ${text}\n`);
  }
  endLogs(ns: string, pod: string): void {
    for (const r of this.followers.get(`${ns}/${pod}`) ?? []) r.end();
    this.followers.delete(`${ns}/${pod}`);
  }

  private takeFault(verb: Verb, resource: string): Fault | null {
    const i = this.faults.findIndex(
      (f) => (!f.verb || f.verb === verb) && (!f.resource || f.resource === resource) && (f.times ?? 0) > 0,
    );
    if (i < 0) return null;
    const f = this.faults[i] as Fault;
    f.times = (f.times ?? 1) - 1;
    return f;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? "/", "http://x");
    const parts = u.pathname.split("/").filter(Boolean);
    // core/v1 at /api/v1, apps/v1 at /apis/apps/v1: each kind only under its own group's path.
    const group =
      parts[0] === "api" && parts[1] === "v1"
        ? ""
        : parts[0] === "apis" && parts[1] === "apps" && parts[2] === "v1"
          ? "apps"
          : null;
    if (group === null)
      return status(res, 404, "NotFound", "the server could not find the requested resource");
    let ns: string | undefined;
    let rest = parts.slice(group ? 3 : 2);
    if (rest[0] === "namespaces" && rest.length >= 3) {
      ns = rest[1];
      rest = rest.slice(2);
    }
    const [resource, name, sub] = rest as [string, string | undefined, string | undefined];
    if (!resource || !KINDS[resource] || (KINDS[resource]?.group ?? "") !== group)
      return status(res, 404, "NotFound", `unknown resource ${resource}`);
    const apiVersion = group ? `${group}/v1` : "v1";
    const method = req.method ?? "GET";
    const watch = u.searchParams.get("watch") === "true";
    const verb: Verb =
      method === "POST"
        ? "create"
        : method === "DELETE"
          ? "delete"
          : method === "PUT"
            ? "update"
            : name
              ? "get"
              : watch
                ? "watch"
                : "list";
    const rname = sub ? `${resource}/${sub}` : resource;
    this.calls.push({ verb, resource: rname, at: Date.now() });
    const fault = this.takeFault(verb, rname);
    if (fault?.status === "timeout") return; // never answered: the client's timeout must fire
    if (fault?.status === "close") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end();
    }
    if (fault)
      return status(
        res,
        fault.status,
        REASONS[fault.status] ?? "Unknown",
        `injected ${fault.status} for ${verb} ${rname}`,
      );
    const selector = u.searchParams.get("labelSelector");

    if (sub === "log" && resource === "pods" && ns && name)
      return this.serveLog(res, ns, name, u.searchParams);
    if (verb === "watch") return this.serveWatch(req, res, resource, ns, selector, u.searchParams);
    if (verb === "list") {
      const items = this.store.list(resource, ns, selector);
      return json(res, 200, {
        kind: `${KINDS[resource]?.kind}List`,
        apiVersion,
        metadata: { resourceVersion: String(this.store.currentRv()) },
        items,
      });
    }
    if (verb === "get") {
      const obj = this.store.get(resource, ns, name as string);
      return obj ? json(res, 200, obj) : status(res, 404, "NotFound", `${resource} "${name}" not found`);
    }
    if (verb === "delete") {
      const obj = this.store.get(resource, ns, name as string);
      if (!obj) return status(res, 404, "NotFound", `${resource} "${name}" not found`);
      // Pods get a grace period the kubelet ends; everything else goes at once (a Deployment's pods are then
      // deleted by the stand-in's garbage collector, unless propagationPolicy=Orphan keeps them).
      // Answered with the object, as the real server does.
      if (resource === "deployments" && u.searchParams.get("propagationPolicy") === "Orphan") {
        for (const p of this.store.list("pods", ns)) {
          const refs = (p.metadata as { ownerReferences?: Array<{ uid?: string }> }).ownerReferences ?? [];
          if (refs.some((r) => r.uid === obj.metadata.uid))
            this.store.put("pods", { ...p, metadata: { ...p.metadata, ownerReferences: [] } });
        }
      }
      const gone =
        resource === "pods"
          ? this.store.put("pods", {
              ...obj,
              metadata: { ...obj.metadata, deletionTimestamp: new Date().toISOString() },
            })
          : this.store.remove(resource, ns, name as string);
      return json(res, 200, gone);
    }
    if (verb === "create") {
      const obj = (await body(req)) as KObject;
      const spec = KINDS[resource];
      try {
        if (spec) new spec.model(obj).validate();
      } catch (err) {
        this.invalid.push(`${resource}: ${String(err)}`);
        return status(res, 422, "Invalid", `${spec?.kind} is invalid: ${String(err)}`);
      }
      if (obj.kind !== spec?.kind || (obj.apiVersion ?? apiVersion) !== apiVersion)
        return status(
          res,
          400,
          "BadRequest",
          `${obj.apiVersion} ${obj.kind} sent to ${apiVersion} ${resource}`,
        );
      const objNs = resource === "namespaces" || resource === "nodes" ? undefined : ns;
      if (objNs && obj.metadata.namespace && obj.metadata.namespace !== objNs)
        return status(res, 400, "BadRequest", "namespace mismatch");
      if (objNs && !this.store.get("namespaces", undefined, objNs))
        return status(res, 404, "NotFound", `namespaces "${objNs}" not found`);
      if (this.store.get(resource, objNs, obj.metadata.name))
        return status(res, 409, "AlreadyExists", `${resource} "${obj.metadata.name}" already exists`);
      const stored = this.store.put(resource, {
        ...obj,
        metadata: {
          ...obj.metadata,
          namespace: objNs,
          uid: randomUUID(),
          creationTimestamp: new Date().toISOString(),
        },
        ...(resource === "pods" ? { status: { phase: "Pending", conditions: [] } } : {}),
        ...(resource === "deployments" ? { status: { observedGeneration: 0, replicas: 0 } } : {}),
      });
      return json(res, 201, stored);
    }
    return status(res, 405, "MethodNotAllowed", method);
  }

  private serveWatch(
    req: IncomingMessage,
    res: ServerResponse,
    resource: string,
    ns: string | undefined,
    selector: string | null,
    q: URLSearchParams,
  ) {
    const from = Number(q.get("resourceVersion") || this.store.currentRv());
    const bookmarks = q.get("allowWatchBookmarks") === "true";
    res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
    const send = (type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
    const backlog = this.store.since(resource, from);
    if (backlog === null) {
      send("ERROR", {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        reason: "Expired",
        code: 410,
        message: `too old resource version: ${from} (${this.store.compactedBelow})`,
      });
      return res.end();
    }
    const fits = (o: KObject) =>
      (ns === undefined || o.metadata.namespace === ns) && matchesSelector(o, selector);
    for (const e of backlog) if (fits(e.object)) send(e.type, e.object);
    const unsubscribe = this.store.subscribe((e) => {
      if (e.resource === resource && fits(e.object)) send(e.type, e.object);
    });
    const timer = bookmarks
      ? setInterval(
          () =>
            send("BOOKMARK", {
              kind: KINDS[resource]?.kind,
              apiVersion: KINDS[resource]?.group ? `${KINDS[resource]?.group}/v1` : "v1",
              metadata: { resourceVersion: String(this.store.currentRv()) },
            }),
          this.bookmarkMs,
        )
      : null;
    this.watches.add(res);
    // timeoutSeconds: the server ends the watch cleanly after that long, as the real one does.
    const timeoutS = Number(q.get("timeoutSeconds") || 0);
    const ending = timeoutS > 0 ? setTimeout(() => res.end(), timeoutS * 1000) : null;
    const close = () => {
      unsubscribe();
      if (timer) clearInterval(timer);
      if (ending) clearTimeout(ending);
      this.watches.delete(res);
    };
    req.on("close", close);
    res.on("close", close);
  }

  private serveLog(res: ServerResponse, ns: string, pod: string, q: URLSearchParams) {
    if (!this.store.get("pods", ns, pod)) return status(res, 404, "NotFound", `pods "${pod}" not found`);
    let lines = this.logs.get(`${ns}/${pod}`) ?? [];
    const since = q.get("sinceTime");
    if (since) lines = lines.filter((l) => l.at >= new Date(since));
    const sinceSeconds = q.get("sinceSeconds");
    if (sinceSeconds) lines = lines.filter((l) => l.at.getTime() >= Date.now() - Number(sinceSeconds) * 1000);
    const tail = q.get("tailLines");
    if (tail !== null) lines = Number(tail) === 0 ? [] : lines.slice(-Number(tail));
    const ts = q.get("timestamps") === "true";
    res.writeHead(200, { "content-type": "text/plain" });
    for (const l of lines) res.write(`${ts ? `${l.at.toISOString()} ` : ""}${l.text}\n`);
    if (q.get("follow") !== "true") return res.end();
    const key = `${ns}/${pod}`;
    const set = this.followers.get(key) ?? new Set();
    set.add(res);
    this.followers.set(key, set);
    res.on("close", () => set.delete(res));
  }
}
