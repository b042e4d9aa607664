import { requireOrgAccess } from "@/lib/access";
import { readJsonBody, withIdempotencyKey } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { decodeCursor, encodeCursor, pageQuery } from "@/lib/api/paging";
import { type ListInstancesFilter, launch, loadInstanceDetail, loadInstanceList } from "@/lib/provisioning";

/**
 * GET: the organization's instances, newest first (filters: project, state, region; `limit` and `cursor`). The
 * cursor names the last instance of the page (keyset), so launches made meanwhile never shift the pages.
 */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const q = url.searchParams;
  // Authorize first: a stranger's bad query is a 404 and a weaker role's a 403, never a 422.
  await requireOrgAccess(ctx, params.org);
  const { limit, cursor } = pageQuery(q);
  // Typed loosely on purpose: the library's schema checks it, and an unknown state is a 422 problem.
  const list = await loadInstanceList(ctx, params.org, {
    project: q.get("project") || undefined,
    state: (q.get("state") || undefined) as ListInstancesFilter["state"],
    region: q.get("region") || undefined,
    after: decodeCursor(cursor).k,
    // One more than asked tells whether a next page exists without counting again.
    pageSize: limit + 1,
  });
  const items = list.items.slice(0, limit);
  const last = items.at(-1);
  return apiJson({
    ...list,
    items,
    pageSize: limit,
    next: list.items.length > limit && last ? encodeCursor({ k: last.id }) : null,
  });
});

/**
 * POST: launch (members and up). The body is the launch spec; an `Idempotency-Key` header makes retries safe:
 * the same key again answers 200 with the instance it created (Idempotent-Replayed: true) instead of a second one.
 */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const spec = withIdempotencyKey(await readJsonBody(req), req.headers.get("idempotency-key"));
  const { instance, replayed } = await launch(ctx, params.org, spec);
  const headers: Record<string, string> = { location: `${url.pathname}/${instance.id}` };
  if (replayed) headers["idempotent-replayed"] = "true";
  return apiJson(await loadInstanceDetail(ctx, params.org, instance.id), {
    status: replayed ? 200 : 201,
    headers,
  });
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
