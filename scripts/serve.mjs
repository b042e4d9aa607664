/**
 * The production web server: Next.js behind a plain node:http server (Next's documented custom server) that
 * only adds one thing. It appends the TCP peer's address to X-Forwarded-For, as any proxy does, so the
 * right-most entry is always the machine that connected to us; `next start` instead keeps a client-sent
 * X-Forwarded-For as it is, which made every rate limit key a value the client chose (lib/auth/client-address).
 * Usage: node scripts/serve.mjs [-p PORT] (PORT and HOSTNAME from the environment otherwise).
 */
import { createServer } from "node:http";
import next from "next";
import { guarded, MAX_HEADER_BYTES, onClientError } from "./http-guard.mjs";

const flag = process.argv.indexOf("-p");
const port = Number(flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? 3000));
const hostname = process.env.HOSTNAME || "0.0.0.0";

const app = next({ dev: false, dir: process.cwd(), port, hostname });
const handle = app.getRequestHandler();
await app.prepare();

// The HTTP guard answers what never reaches a route (malformed URLs, huge headers) as problem+json.
const server = createServer(
  { maxHeaderSize: MAX_HEADER_BYTES },
  guarded((req, res) => {
    const peer = req.socket.remoteAddress ?? "";
    const prior = req.headers["x-forwarded-for"];
    req.headers["x-forwarded-for"] = prior ? `${prior}, ${peer}` : peer;
    void handle(req, res);
  }),
);
server.on("clientError", onClientError);
server.listen(port, hostname, () => {
  console.log(`[web] listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  // A browser holding a keep-alive connection open must not keep the process up.
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
