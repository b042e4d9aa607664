import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { type TopInstancesInput, topInstances } from "@/lib/metering";

/** GET: the instances that cost the most in a range, most expensive first (`from`, `to`, `limit` ≤ 100). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const q = url.searchParams;
  const input = {
    from: q.get("from") ?? undefined,
    to: q.get("to") ?? undefined,
    limit: q.get("limit") ?? undefined,
    project: q.get("project") || undefined,
  } as unknown as TopInstancesInput;
  // A ranking, not a list to walk: `limit` is how many of the top, so there is never a next page.
  return apiJson({ items: await topInstances(ctx, params.org, input), next: null });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
