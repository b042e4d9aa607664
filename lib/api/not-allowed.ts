import { problemResponse } from "./problem";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const ALL: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Marks the handlers below, so the route sweep can tell a real method from a refused one. */
export const NOT_ALLOWED = Symbol.for("forja.methodNotAllowed");

/**
 * Handlers for the methods a route does not serve. Without them Next.js answers 405 with an empty body; with
 * them the answer is problem+json naming what is allowed (and the Allow header RFC 9110 asks for). Every route
 * under /api/v1 spreads these in: `export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");` — the
 * route sweep fails on a route that does not.
 */
export function notAllowed(...allowed: Method[]): Record<Method, (req: Request) => Promise<Response>> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  const out = {} as Record<Method, (req: Request) => Promise<Response>>;
  for (const m of ALL) {
    if (allowed.includes(m)) continue;
    const handler = async (req: Request) =>
      problemResponse(
        {
          type: "about:blank",
          title: "Method Not Allowed",
          status: 405,
          detail: `${req.method} is not allowed here; use ${allow}`,
          instance: new URL(req.url).pathname,
        },
        { allow },
      );
    Object.defineProperty(handler, NOT_ALLOWED, { value: true });
    out[m] = handler;
  }
  return out;
}
