import { readJsonBody } from "@/lib/api/body";
import { etagOf } from "@/lib/api/etag";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { idempotentCreate } from "@/lib/api/idempotency";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { invitationTagView, inviteMember, listInvitations } from "@/lib/tenancy";

/** GET: open invitations, newest first (admins and owners); each row's `etag` is what DELETE's If-Match checks. */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const rows = (await listInvitations(ctx, params.org)).map((i) => ({
    ...i,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
    etag: etagOf(invitationTagView(i)),
  }));
  return apiJson(pageOf(rows, url.searchParams, (i) => i.id));
});

/** POST {email, role}: invite someone by email (admins; owners only by owners); `Idempotency-Key` supported. */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params, url }) => {
  const body = await readJsonBody(req);
  return idempotentCreate(req, ctx, params.org, "invitations", body, async (c) => {
    // The token is never returned over the API: the invitee gets it by email only.
    const { invitation: inv } = await inviteMember(c, params.org, body);
    return {
      body: { id: inv.id, email: inv.email, role: inv.role, expiresAt: inv.expiresAt.toISOString() },
      location: `${url.pathname}/${inv.id}`,
    };
  });
});

export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
