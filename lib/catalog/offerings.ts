import "server-only";
import { sql } from "drizzle-orm";
import { judgeOrgAccess, type OrgAccessRow, orgAccessSql, requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import {
  type Offering,
  type OfferingPage,
  type OfferingRow,
  readOfferingPage,
  toOffering,
} from "./offering-row";
import { filterTerms, offeringsCountQuery, offeringsPageQuery } from "./offerings-sql";
import { type CatalogFilterInput, catalogFiltersSchema, type PricingModel } from "./schemas";

export type { DisallowedReason, Offering, OfferingPage } from "./offering-row";

/**
 * The catalog for one organization: filtered, sorted, paginated offerings with live availability, each
 * marked allowed or not by the organization's data-residency jurisdictions. Filtering, sorting, counting and
 * availability happen in one SQL statement over offering_summaries (one row per offering and price period,
 * kept by triggers: drizzle 0028) that sorts narrow rows and widens only the page's (a second, count-only one
 * when the page is past the end); availability is the summary's too, kept from node_capacity (drizzle 0019)
 * at the commit of every transaction that changes a node's capacity (drizzle 0031).
 * The access check is read by the page statement itself (one round trip; docs/adr/0013-catalog-summary.md).
 */
export async function listOfferings(
  ctx: Ctx,
  orgSlug: string,
  input: CatalogFilterInput = {},
): Promise<OfferingPage> {
  const parsed = catalogFiltersSchema.safeParse(input);
  const access = ctx.actor.kind === "user" ? orgAccessSql(ctx, orgSlug) : null;
  if (!parsed.success || !access) {
    // The gate's own round trip first, so its errors come before a ValidationError (422) for bad filters
    // from a programmatic caller (API); pages use parseCatalogFilters.
    const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
    const filters = parseInput(catalogFiltersSchema, input);
    const at = nowOf(ctx);
    const allowed = org.allowedJurisdictions;
    return readOfferingPage(readDb(ctx), filters, allowed, {
      page: offeringsPageQuery(at, allowed, filters),
      count: () => offeringsCountQuery(at, filters),
      prepared: true,
    });
  }
  // The access check folded into the page statement (one round trip, as the chart's): the gate's verdict on
  // its columns comes before anything else in the rows is used.
  const filters = parsed.data;
  const at = nowOf(ctx);
  const exec = readDb(ctx);
  const { rows } = await executePrepared<OrgAccessRow & OfferingRow>(
    exec,
    offeringsPageQuery(at, access, filters),
  );
  const { org } = judgeOrgAccess(ctx, rows[0], "viewer");
  const allowed = org.allowedJurisdictions;
  return readOfferingPage(exec, filters, allowed, {
    page: rows.filter((r) => r.instance_type_id !== null),
    count: () => offeringsCountQuery(at, filters),
    prepared: true,
  });
}

/** One offering (instance type in a region) as the organization sees it; NotFound when not on sale now. */
export async function getOffering(
  ctx: Ctx,
  orgSlug: string,
  key: { instanceTypeId: string; regionCode: string; pricing?: PricingModel },
): Promise<Offering> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const filters = parseInput(catalogFiltersSchema, { pricing: key.pricing ?? "on_demand", pageSize: 10 });
  const { rows } = await readDb(ctx).execute<OfferingRow>(
    offeringsPageQuery(nowOf(ctx), org.allowedJurisdictions, filters, [
      ...filterTerms(filters),
      sql`s.instance_type_id = ${key.instanceTypeId}`,
      sql`s.region_code = ${key.regionCode}`,
    ]),
  );
  const row = rows[0];
  if (!row) throw new NotFoundError("Offering");
  return toOffering(row, org.allowedJurisdictions);
}
