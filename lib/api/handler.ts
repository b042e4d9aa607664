import "server-only";
import { type ApiCtx, assertWithinLimit, meteredRequest, rateLimitHeaders } from "./authenticate";
import { errorToProblem } from "./problem";

type Args<P> = { req: Request; ctx: ApiCtx; params: P; url: URL };
type PublicArgs<P> = Omit<Args<P>, "ctx">;
type RouteContext<P> = { params: Promise<P> };

/** Run a route body and turn anything it throws into problem+json with the request path as `instance`. */
function guarded<P, A>(
  build: (req: Request, params: P, url: URL, headers: Headers) => Promise<A>,
  fn: (args: A) => Promise<Response>,
) {
  // The context is optional so a test (or a static route) can call the handler with the request alone.
  return async (req: Request, context?: RouteContext<P>): Promise<Response> => {
    const url = new URL(req.url);
    // Headers every answer carries, success or problem (the rate limit's, once the caller is known).
    const always = new Headers();
    let res: Response;
    try {
      res = await fn(await build(req, (await context?.params) ?? ({} as P), url, always));
    } catch (err) {
      res = errorToProblem(err, url.pathname, req.headers.get("accept-language"));
    }
    always.forEach((value, name) => {
      res.headers.set(name, value);
    });
    return res;
  };
}

/**
 * The one route-handler wrapper: authenticate (API token or the console's session), run the body, and map any
 * thrown error to problem+json. The body parses input with the library's schema and calls one lib function;
 * it never writes its own try/catch.
 */
export function apiHandler<P extends Record<string, string> = Record<string, never>>(
  fn: (args: Args<P>) => Promise<Response>,
) {
  return guarded<P, Args<P>>(async (req, params, url, always) => {
    const { ctx, rate } = await meteredRequest(req);
    for (const [name, value] of Object.entries(rateLimitHeaders(rate))) always.set(name, value);
    assertWithinLimit(rate);
    return { req, ctx, params, url };
  }, fn);
}

/** The same wrapper for the few public routes (the OpenAPI document, health): no caller to authenticate. */
export function publicHandler<P extends Record<string, string> = Record<string, never>>(
  fn: (args: PublicArgs<P>) => Promise<Response>,
) {
  return guarded<P, PublicArgs<P>>(async (req, params, url) => ({ req, params, url }), fn);
}

/** JSON that proxies and browsers must not cache (it is per caller and changes). */
export function apiJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return Response.json(body, {
    status: init.status ?? 200,
    headers: { "cache-control": "no-store", ...init.headers },
  });
}
