import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listMembers } from "@/lib/tenancy";

/** GET: the organization's members with their roles (any role). */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const members = (await listMembers(ctx, params.org)).map((m) => ({
    ...m,
    joinedAt: m.joinedAt.toISOString(),
  }));
  return apiJson(pageOf(members, url.searchParams, (m) => m.userId));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
