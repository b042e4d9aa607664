import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { suspendOrganization } from "@/lib/provisioning";

/** POST {reason, noticeMinutes?}: operators suspend an organization (the console's suspend form, same lib call). */
export const POST = apiHandler<{ org: string }>(async ({ req, ctx, params }) => {
  const body = await readJsonBody(req);
  const r = await suspendOrganization(ctx, { ...(body as object), org: params.org });
  return apiJson({
    org: r.slug,
    noticeEndsAt: r.noticeEndsAt.toISOString(),
    noticedInstances: r.noticedInstances,
  });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
