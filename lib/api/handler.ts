import "server-only";
import { type ApiCtx, authenticateRequest } from "./authenticate";
import { errorToProblem } from "./problem";

type Args<P> = { req: Request; ctx: ApiCtx; params: P; url: URL };

/**
 * A route handler as an adapter: authenticate, run the body, and turn any thrown error into problem+json with
 * the request path as `instance`. The body parses input with the library's schema and calls one lib function.
 */
export function apiHandler<P extends Record<string, string> = Record<string, never>>(
  fn: (args: Args<P>) => Promise<Response>,
) {
  return async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    const url = new URL(req.url);
    try {
      const ctx = await authenticateRequest(req);
      return await fn({ req, ctx, params: await context.params, url });
    } catch (err) {
      return errorToProblem(err, url.pathname);
    }
  };
}

/** JSON that proxies and browsers must not cache (it is per caller and changes). */
export function apiJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return Response.json(body, {
    status: init.status ?? 200,
    headers: { "cache-control": "no-store", ...init.headers },
  });
}
