import { readJsonBody, withIdempotencyKey } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type ListInstancesFilter, launch, loadInstanceDetail, loadInstanceList } from "@/lib/provisioning";

/** GET: the organization's instances (filters: project, state, region, page), for the list's live status. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const q = url.searchParams;
  const page = q.get("page");
  return apiJson(
    // Typed loosely on purpose: the library's schema checks it, and an unknown state is a 422 problem.
    await loadInstanceList(ctx, params.org, {
      project: q.get("project") || undefined,
      state: (q.get("state") || undefined) as ListInstancesFilter["state"],
      region: q.get("region") || undefined,
      page: page ? Number(page) : undefined,
    }),
  );
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
