/// <reference types="vite/client" />
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The /api route handlers behind a real HTTP server on a free port, for tests that drive Forja from outside
 * the process (the `forja` CLI). Routes are found from app/api itself, the way the API sweep finds them, and
 * matched the way Next.js does: static segments before dynamic ones. Requests and responses are the real
 * Fetch objects the handlers take and return; only Next's router is stood in for.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Route = { re: RegExp; names: string[]; statics: number; load: () => Promise<Record<string, unknown>> };

const modules = import.meta.glob<Record<string, unknown>>("/app/api/**/route.ts");

function routes(): Route[] {
  return Object.entries(modules)
    .map(([file, load]) => {
      const segs = file
        .replace(/^\/app/, "")
        .replace(/\/route\.ts$/, "")
        .split("/")
        .filter((s) => s && !/^\(.*\)$/.test(s));
      const names: string[] = [];
      const re = segs
        .map((s) => {
          const m = /^\[(\.\.\.)?([^\]]+)\]$/.exec(s);
          if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(m[2] as string);
          return m[1] ? "(.+)" : "([^/]+)";
        })
        .join("/");
      return { re: new RegExp(`^/${re}$`), names, statics: segs.length - names.length, load };
    })
    .sort((a, b) => b.statics - a.statics);
}

async function bodyOf(req: http.IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startApiServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const table = routes();
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const route = table.find((r) => r.re.test(url.pathname));
      const mod = route ? await route.load() : null;
      const handler = mod?.[req.method ?? "GET"] as Handler | undefined;
      if (!route || !handler) {
        res.writeHead(404).end();
        return;
      }
      const m = route.re.exec(url.pathname) as RegExpExecArray;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? "")]));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = await bodyOf(req);
      // A client that hangs up aborts the request's signal, as Next.js does (a followed log stream stops).
      const hungUp = new AbortController();
      res.on("close", () => hungUp.abort());
      const response = await handler(
        new Request(url, {
          method: req.method,
          headers,
          body: body ? new Uint8Array(body) : undefined,
          signal: hungUp.signal,
        }),
        {
          params: Promise.resolve(params),
        },
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      // Streamed as it comes (CSV exports, Server-Sent Events), not buffered whole.
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      }
      res.end();
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
