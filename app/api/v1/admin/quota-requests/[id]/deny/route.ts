import { readJsonBody } from "@/lib/api/body";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { decideQuotaRequest, quotaRequestView } from "@/lib/quotas";

/** POST (operators) {message?}: deny an open request. */
export const POST = apiHandler<{ id: string }>(async ({ req, ctx, params }) => {
  const text = await req.clone().text();
  const body = text.trim() ? await readJsonBody(req) : {};
  const decided = await decideQuotaRequest(ctx, params.id, {
    ...(body && typeof body === "object" ? body : {}),
    decision: "deny",
  });
  return apiJson(quotaRequestView(decided));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
