import { requireOrgAccess } from "@/lib/access";
import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { pageOf } from "@/lib/api/paging";
import { listRegions } from "@/lib/catalog";

/**
 * GET: active regions with their jurisdiction, PUE and grid carbon intensity, and whether this organization's
 * data-residency policy allows launching there (`allowed`).
 */
export const GET = apiHandler<{ org: string }>(async ({ ctx, params, url }) => {
  const { org } = await requireOrgAccess(ctx, params.org);
  const allowedIn = new Set(org.allowedJurisdictions);
  const regions = (await listRegions(ctx)).flatMap((g) => g.regions);
  const items = regions.map((r) => ({
    ...r,
    allowed: allowedIn.size === 0 || allowedIn.has(r.jurisdiction),
  }));
  return apiJson(pageOf(items, url.searchParams, (r) => r.code));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
