import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * The simulated provider's replica: a real HTTP server on loopback that behaves like a model server — a cold
 * start (weights loading: /health answers 503 until it ends), a concurrency limit (requests beyond it wait
 * inside the server, as a batching server queues them), and latency that grows with the requests in flight.
 * `?stream=N` answers N server-sent-event tokens (token streaming); an Upgrade is a WebSocket echo.
 */
export type ModelServerOptions = {
  name: string;
  coldStartMs: number;
  concurrency: number;
  /** Latency of one request alone. */
  baseLatencyMs: number;
  /** Extra latency per other request in flight (up to the concurrency limit). */
  perInflightMs: number;
  /** Where it listens: loopback and a free port by default (the API server stand-in gives a pod's own). */
  host?: string;
  port?: number;
};

export type ModelServer = {
  url: string;
  /** Graceful: stop accepting, let requests in flight finish. */
  close: () => Promise<void>;
  /** Abrupt: every connection reset at once (a crashed replica). */
  kill: () => void;
};

/** The defaults of the simulated replicas, from the environment so tests use ~1 s cold starts and demos tens. */
export function modelServerDefaults(env: NodeJS.ProcessEnv = process.env): Omit<ModelServerOptions, "name"> {
  const num = (v: string | undefined, d: number) =>
    v !== undefined && Number.isFinite(Number(v)) ? Number(v) : d;
  return {
    coldStartMs: num(env.FORJA_SERVICE_COLD_START_MS, 20_000),
    concurrency: num(env.FORJA_SERVICE_REPLICA_CONCURRENCY, 8),
    baseLatencyMs: num(env.FORJA_SERVICE_LATENCY_MS, 60),
    perInflightMs: num(env.FORJA_SERVICE_LATENCY_PER_INFLIGHT_MS, 15),
  };
}

const DRAIN_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startModelServer(opts: ModelServerOptions): Promise<ModelServer> {
  const loadedAt = Date.now() + opts.coldStartMs;
  let inflight = 0;
  const waiters: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const acquire = async () => {
    if (inflight < opts.concurrency) {
      inflight++;
      return;
    }
    await new Promise<void>((r) => waiters.push(r));
  };
  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else inflight--;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://replica");
    const loaded = Date.now() >= loadedAt;
    if (url.pathname === "/health") {
      res.writeHead(loaded ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: loaded ? "ok" : "loading" }));
      return;
    }
    // Drain the body (the gateway sends it whole) before answering.
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    if (!loaded) {
      res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
      res.end(JSON.stringify({ error: "model loading" }));
      return;
    }
    const arrived = Date.now();
    await acquire();
    const queuedMs = Date.now() - arrived;
    try {
      const latency = opts.baseLatencyMs + opts.perInflightMs * Math.max(0, inflight - 1);
      const tokens = Number(url.searchParams.get("stream") ?? 0);
      if (tokens > 0) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (let i = 0; i < Math.min(tokens, 1000); i++) {
          await sleep(latency / Math.max(1, tokens));
          res.write(`data: {"token":${i}}\n\n`);
        }
        res.end("data: [DONE]\n\n");
        return;
      }
      await sleep(latency);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          replica: opts.name,
          path: url.pathname,
          method: req.method,
          bytes,
          latencyMs: latency,
          queuedMs,
        }),
      );
    } finally {
      release();
    }
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, socket) => websocketEcho(req, socket as Socket));
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    // Requests in flight get DRAIN_MS to finish; what is still open then (a WebSocket) is cut.
    close: () =>
      new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, DRAIN_MS);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
    kill: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/** RFC 6455 handshake, then every text/binary frame (unfragmented, < 64 KiB) sent back unmasked. */
function websocketEcho(req: http.IncomingMessage, socket: Socket) {
  const key = req.headers["sec-websocket-key"];
  if (typeof key !== "string") {
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  let buf = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const b0 = buf[0] as number;
      const b1 = buf[1] as number;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        socket.destroy();
        return;
      }
      const masked = (b1 & 0x80) !== 0;
      const total = off + (masked ? 4 : 0) + len;
      if (buf.length < total) return;
      const mask = masked ? buf.subarray(off, off + 4) : null;
      const payload = Buffer.from(buf.subarray(total - len, total));
      if (mask)
        for (let i = 0; i < payload.length; i++)
          payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      buf = buf.subarray(total);
      const opcode = b0 & 0x0f;
      if (opcode === 0x8) {
        socket.end(Buffer.from([0x88, 0]));
        return;
      }
      const header =
        payload.length < 126
          ? Buffer.from([0x80 | opcode, payload.length])
          : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]);
      socket.write(Buffer.concat([header, payload]));
    }
  });
  socket.on("error", () => socket.destroy());
}
