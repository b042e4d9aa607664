import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { changeMemberRole, removeMember } from "@/lib/tenancy";

type P = { org: string; id: string };

/** PUT {role}: change a member's role (admins; owners only by owners; never the last owner). `id` is the user id. */
export const PUT = apiHandler<P>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const role = body && typeof body === "object" ? (body as { role?: unknown }).role : undefined;
  await changeMemberRole(ctx, params.org, { userId: params.id, role });
  return apiJson({ userId: params.id, role });
});

/** DELETE: remove a member (admins; owners only by owners). */
export const DELETE = apiHandler<P>(async ({ ctx, params }) => {
  await removeMember(ctx, params.org, { userId: params.id });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PATCH } = notAllowed("PUT", "DELETE");
