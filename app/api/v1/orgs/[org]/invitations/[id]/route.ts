import { apiHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { revokeInvitation } from "@/lib/tenancy";

/** DELETE: revoke an open invitation (admins and owners); its link stops working. */
export const DELETE = apiHandler<{ org: string; id: string }>(async ({ ctx, params }) => {
  await revokeInvitation(ctx, params.org, { invitationId: params.id });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed("DELETE");
