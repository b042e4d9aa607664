/**
 * Wrapped around the production web server's listener in scripts/serve.mjs (`npm start` and the browser
 * tests alike).
 *
 * A few bad requests never reach a route: Node refuses oversized headers itself (431 with an empty body), and
 * Next's router fails on a malformed %-escape in the path (`GET /%ZZ` → 500 text/plain) or lets a NUL byte
 * through to PostgreSQL. These answer RFC 9457 problem+json with a 4xx before Next sees them. Plain
 * JavaScript, so the server needs no loader for it.
 */
import http from "node:http";

/** Node's default is 16 KiB; a session cookie plus a long bearer token fits comfortably in 32. */
export const MAX_HEADER_BYTES = 32 * 1024;

const TITLES = { 400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large" };

/**
 * A server action posted from another site: Next.js refuses it too, but as a 500. Same comparison as Next's
 * (the Origin's host against X-Forwarded-Host, else Host), answered as the 403 it is.
 * @param {http.IncomingMessage} req
 */
export function foreignActionOrigin(req) {
  if (req.method !== "POST" || !req.headers["next-action"]) return false;
  const origin = req.headers.origin;
  if (!origin || origin === "null") return false;
  const forwarded = req.headers["x-forwarded-host"];
  const host =
    (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() || req.headers.host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** @param {number} status @param {string} detail @param {string} [instance] */
export function problemBody(status, detail, instance) {
  return JSON.stringify({
    type: "about:blank",
    title: TITLES[status] ?? "Error",
    status,
    detail,
    ...(instance ? { instance } : {}),
  });
}

/**
 * Why this request target is refused before routing, or null when it may go on.
 * @param {string} target the raw request target (path and query, still %-encoded)
 */
export function refusal(target) {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  try {
    decodeURIComponent(path);
  } catch {
    return "The URL path has a malformed %-escape";
  }
  // %00 anywhere (path or query): no resource or parameter value holds a NUL character.
  if (/%00/.test(target) || target.includes("\u0000")) return "The URL contains a NUL (%00) character";
  if (q >= 0) {
    for (const part of target.slice(q + 1).split("&")) {
      try {
        decodeURIComponent(part.replace(/\+/g, " "));
      } catch {
        return "The query string has a malformed %-escape";
      }
    }
  }
  return null;
}

/** @param {http.ServerResponse} res @param {number} status @param {string} detail @param {string} [instance] */
function send(res, status, detail, instance) {
  const body = problemBody(status, detail, instance);
  res.writeHead(status, {
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
  });
  res.end(body);
}

/**
 * The request listener wrapped: refused targets answer 400 here, everything else goes to Next.
 * @param {http.RequestListener} inner
 * @returns {http.RequestListener}
 */
export function guarded(inner) {
  return (req, res) => {
    const why = refusal(req.url ?? "/");
    if (why) return send(res, 400, why);
    if (foreignActionOrigin(req)) return send(res, 403, "This form was posted from another site", req.url);
    return inner(req, res);
  };
}

/**
 * Node's own parse errors (oversized headers, a malformed request line) as problem+json instead of an empty
 * 431/400, then the connection is closed as Node would.
 * @param {Error & { code?: string }} err @param {import("node:stream").Duplex} socket
 */
export function onClientError(err, socket) {
  if (!socket.writable) return socket.destroy();
  const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const detail =
    status === 431
      ? `The request headers are larger than ${MAX_HEADER_BYTES} bytes`
      : "The request could not be parsed";
  const body = problemBody(status, detail);
  socket.end(
    `HTTP/1.1 ${status} ${TITLES[status]}\r\ncontent-type: application/problem+json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
