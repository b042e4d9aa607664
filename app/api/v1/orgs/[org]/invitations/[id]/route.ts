import { ifMatchCheck } from "@/lib/api/etag";
import { apiHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { invitationTagView, revokeInvitation } from "@/lib/tenancy";

/**
 * DELETE: revoke an open invitation (admins and owners); its link stops working. If-Match (the row's `etag`
 * in the list) makes a revoke of an invitation resent or changed since it was read a 412.
 */
export const DELETE = apiHandler<{ org: string; id: string }>(async ({ req, ctx, params }) => {
  await revokeInvitation(
    ctx,
    params.org,
    { invitationId: params.id },
    { precondition: ifMatchCheck(req, invitationTagView) },
  );
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");
