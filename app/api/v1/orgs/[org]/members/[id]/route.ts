import { readJsonBody } from "@/lib/api/body";
import { etagOf, ifMatchCheck } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { changeMemberRole, getMember, removeMember } from "@/lib/tenancy";

type P = { org: string; id: string };

/** A member's ETag covers what can be changed through the API: the role (name and email are the user's own). */
const roleOf = (m: { userId: string; role: string }) => ({ userId: m.userId, role: m.role });

/** GET: one member, with the ETag of their role (send it back as If-Match on PUT or DELETE). */
export const GET = apiHandler<P>(async ({ ctx, params }) => {
  const m = await getMember(ctx, params.org, params.id);
  return apiJson({ ...m, joinedAt: m.joinedAt.toISOString() }, { headers: { etag: etagOf(roleOf(m)) } });
});

/**
 * PUT {role}: change a member's role (admins; owners only by owners; never the last owner). `id` is the user
 * id. A stale If-Match (someone changed the role since) is a 412 and nothing changes.
 */
export const PUT = apiHandler<P>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const role = body && typeof body === "object" ? (body as { role?: unknown }).role : undefined;
  const precondition = ifMatchCheck(req, roleOf);
  await changeMemberRole(ctx, params.org, { userId: params.id, role }, { precondition });
  const view = { userId: params.id, role };
  return apiJson(view, { headers: { etag: etagOf(view) } });
});

/** DELETE: remove a member (admins; owners only by owners); If-Match honoured the same way. */
export const DELETE = apiHandler<P>(async ({ req, ctx, params }) => {
  await removeMember(ctx, params.org, { userId: params.id }, { precondition: ifMatchCheck(req, roleOf) });
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = notAllowed("GET", "PUT", "DELETE");
