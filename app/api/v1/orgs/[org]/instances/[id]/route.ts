import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { loadInstanceDetail } from "@/lib/provisioning";

/** GET: one instance with its timeline, queue insight and cost estimate; another org's id is a 404 problem. */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params }) =>
  apiJson(await loadInstanceDetail(ctx, params.org, params.id)),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
