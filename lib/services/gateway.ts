import "server-only";
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable } from "node:stream";
import { createProxyServer } from "http-proxy-3";
import { hashServiceToken } from "./create";
import { loadRoutes, type Route, type RouteReplica } from "./gateway-routes";
import { createGatewayTelemetry } from "./gateway-telemetry";

export type GatewayOptions = {
  port?: number;
  host?: string;
  /** How long a request waits for a ready replica (scale from zero) before a 503. */
  holdTimeoutMs?: number;
  /** Requests one service may hold at once; beyond it, 503 at once. */
  queueLimit?: number;
  refreshMs?: number;
  maxBodyBytes?: number;
  gatewayId?: string;
};

type Waiter = { resolve: (r: RouteReplica | null) => void; timer: NodeJS.Timeout };

const PATH = /^\/([a-z0-9][-a-z0-9]*)\/s\/([a-z][-a-z0-9]*)(\/[^?]*)?(\?.*)?$/;

function problem(
  res: http.ServerResponse,
  status: number,
  title: string,
  detail: string,
  extra: Record<string, string> = {},
) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "content-type": "application/problem+json", ...extra });
  res.end(JSON.stringify({ type: "about:blank", title, status, detail }));
}

function tokenOf(req: http.IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  const h = req.headers["x-forja-service-token"];
  return typeof h === "string" ? h : null;
}

function tokenMatches(route: Route, token: string | null): boolean {
  if (route.auth === "public") return true;
  if (!token || !route.tokenHash) return false;
  const a = Buffer.from(hashServiceToken(token), "hex");
  const b = Buffer.from(route.tokenHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The services gateway, on its own port (docs/adr/0012): `/<org>/s/<service>/<path>` is proxied with
 * http-proxy-3 over keep-alive connections to the ready replica with the fewest outstanding requests; responses
 * stream through (token streaming), Upgrade requests are passed through (WebSocket). With no ready replica a
 * request is held (bounded queue) until one is ready or the hold times out (503 + Retry-After). A connection
 * error before any byte of the answer is retried once on another replica (failover; the body is buffered
 * for that), otherwise the client gets a clean 502. Traffic goes to telemetry every second.
 */
export async function startGateway(opts: GatewayOptions = {}) {
  const holdTimeoutMs = opts.holdTimeoutMs ?? Number(process.env.FORJA_GATEWAY_HOLD_MS ?? 120_000);
  const queueLimit = opts.queueLimit ?? Number(process.env.FORJA_GATEWAY_QUEUE_LIMIT ?? 1000);
  const maxBody = opts.maxBodyBytes ?? 16 * 1024 * 1024;
  const telemetry = createGatewayTelemetry(opts.gatewayId ?? `gw-${process.pid}-${Date.now().toString(36)}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 10_000 });
  const proxy = createProxyServer({ agent, xfwd: true, proxyTimeout: 120_000 });
  proxy.on("error", () => {});
  let routes = new Map<string, Route>();
  const outstanding = new Map<string, number>();
  const waiting = new Map<string, Waiter[]>();
  const sockets = new Set<Socket>();

  const pick = (route: Route, exclude?: string): RouteReplica | null => {
    let best: RouteReplica | null = null;
    let bestN = Infinity;
    for (const r of route.replicas) {
      if (r.id === exclude) continue;
      const n = outstanding.get(r.id) ?? 0;
      // Ties go to a random one, so idle replicas share a trickle of traffic.
      if (n < bestN || (n === bestN && Math.random() < 0.5)) {
        best = r;
        bestN = n;
      }
    }
    return best;
  };

  const wake = () => {
    for (const [key, list] of waiting) {
      const route = routes.get(key);
      while (route && route.replicas.length > 0 && list.length > 0) {
        const w = list.shift() as Waiter;
        clearTimeout(w.timer);
        w.resolve(pick(route));
      }
      if (route) telemetry.setQueued(route.serviceId, route.orgId, list.length);
      else cancelAll(list);
    }
  };

  const refresh = async () => {
    try {
      routes = await loadRoutes();
      wake();
    } catch (err) {
      console.error("[gateway] could not refresh routes", err);
    }
  };
  await refresh();
  const timers = [
    setInterval(refresh, opts.refreshMs ?? 250),
    setInterval(() => void telemetry.flush().catch((e) => console.error("[gateway] telemetry", e)), 1000),
  ];

  const hold = (key: string, route: Route) =>
    new Promise<RouteReplica | null | "full">((resolve) => {
      const list = waiting.get(key) ?? [];
      if (list.length >= queueLimit) return resolve("full");
      const w: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const l = waiting.get(key) ?? [];
          const i = l.indexOf(w);
          if (i >= 0) l.splice(i, 1);
          telemetry.setQueued(route.serviceId, route.orgId, l.length);
          resolve(null);
        }, holdTimeoutMs),
      };
      list.push(w);
      waiting.set(key, list);
      telemetry.setQueued(route.serviceId, route.orgId, list.length);
    });

  const readBody = async (req: http.IncomingMessage): Promise<Buffer | null> => {
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const c of req) {
      n += (c as Buffer).length;
      if (n > maxBody) return null;
      chunks.push(c as Buffer);
    }
    return Buffer.concat(chunks);
  };

  // A service created a moment ago is not in the table yet: one shared refresh, at most every 100 ms.
  let lastMiss: Promise<void> | null = null;
  let lastMissAt = 0;
  const routeOf = async (key: string) => {
    if (routes.has(key) || !key) return routes.get(key);
    if (!lastMiss || Date.now() - lastMissAt > 100) {
      lastMissAt = Date.now();
      lastMiss = refresh();
    }
    await lastMiss;
    return routes.get(key);
  };

  const server = http.createServer(async (req, res) => {
    const m = PATH.exec(req.url ?? "");
    const key = m ? `${m[1]}/${m[2]}` : "";
    const route = await routeOf(key);
    if (!m || !route) return problem(res, 404, "Not Found", "No such service");
    if (!tokenMatches(route, tokenOf(req))) {
      return problem(
        res,
        401,
        "Unauthorized",
        "This service needs a valid service token (Authorization: Bearer …)",
        {
          "www-authenticate": 'Bearer realm="forja-service"',
        },
      );
    }
    const began = Date.now();
    const { serviceId, orgId } = route;
    telemetry.started(serviceId, orgId);
    let status = 0;
    let held = false;
    let holdTimeout = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      telemetry.finished(serviceId, orgId, status || res.statusCode || 499, Date.now() - began, {
        held,
        holdTimeout,
      });
    };
    res.on("finish", finish);
    res.on("close", () => {
      if (!res.writableFinished) status = status || 499;
      finish();
    });
    const body = await readBody(req).catch(() => null);
    if (body === null)
      return problem(res, 413, "Payload Too Large", `Request bodies are limited to ${maxBody} bytes`);

    let replica = pick(route);
    if (!replica) {
      held = true;
      const got = await hold(key, route);
      if (got === "full" || got === null) {
        holdTimeout = got === null;
        status = 503;
        return problem(
          res,
          503,
          "Service Unavailable",
          got === "full"
            ? "Too many requests are waiting for this service to start"
            : "No replica became ready in time; the service is starting",
          {
            "retry-after": "10",
          },
        );
      }
      replica = got;
    }
    req.url = `${m[3] ?? "/"}${m[4] ?? ""}`;
    const send = (target: RouteReplica, attempt: number) => {
      outstanding.set(target.id, (outstanding.get(target.id) ?? 0) + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        outstanding.set(target.id, Math.max(0, (outstanding.get(target.id) ?? 1) - 1));
      };
      res.once("close", release);
      proxy.web(req, res, { target: target.endpoint, buffer: Readable.from([body]) }, (err) => {
        release();
        const current = routes.get(key);
        const other = current ? pick(current, target.id) : null;
        if (!res.headersSent && attempt === 0 && other && isConnectionError(err)) return send(other, 1);
        status = 502;
        problem(res, 502, "Bad Gateway", "The replica failed while answering; retry the request");
      });
    };
    send(replica, 0);
  });
  server.keepAliveTimeout = 65_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, socket: Socket, head) => {
    const m = PATH.exec(req.url ?? "");
    const route = m ? routes.get(`${m[1]}/${m[2]}`) : undefined;
    const reject = (code: string) => socket.end(`HTTP/1.1 ${code}\r\nConnection: close\r\n\r\n`);
    if (!m || !route) return reject("404 Not Found");
    if (!tokenMatches(route, tokenOf(req))) return reject("401 Unauthorized");
    const replica = pick(route);
    if (!replica) return reject("503 Service Unavailable");
    req.url = `${m[3] ?? "/"}${m[4] ?? ""}`;
    proxy.ws(req, socket, head, { target: replica.endpoint }, () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((err) => {
    for (const t of timers) clearInterval(t);
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    refresh,
    flush: () => telemetry.flush(),
    async close() {
      for (const t of timers) clearInterval(t);
      for (const list of waiting.values()) cancelAll(list);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      agent.destroy();
      await telemetry.flush().catch(() => {});
    },
  };
}
export type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** Answer every held request of a list with "no replica" (service gone, gateway closing). */
function cancelAll(list: Waiter[]) {
  for (const w of list.splice(0)) {
    clearTimeout(w.timer);
    w.resolve(null);
  }
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EPIPE" || code === "ECONNABORTED";
}
