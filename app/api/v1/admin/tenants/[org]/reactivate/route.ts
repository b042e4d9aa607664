import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { reactivateOrganization } from "@/lib/provisioning";

/** POST: operators lift an organization's suspension (no body). */
export const POST = apiHandler<{ org: string }>(async ({ ctx, params }) => {
  const r = await reactivateOrganization(ctx, { org: params.org });
  return apiJson({ org: r.slug, suspended: false });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
