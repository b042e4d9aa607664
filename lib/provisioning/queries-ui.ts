import "server-only";
import { sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { priceAt } from "@/lib/catalog";
import { type Ctx, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { COMPUTE_STATES } from "@/lib/metering";
import { type ImageSummary, listImages } from "./images";
import { textArray, uuidArray } from "./sql";

/**
 * Small reads the console needed before the library offered them (see the h6 report): each goes through the
 * actor context like every other page read, so pages never reach for the database client.
 */

/** The image catalog for the launch page. Public catalog data: no tenant scope needed. */
export async function listLaunchImages(ctx: Pick<Ctx, "tx">): Promise<ImageSummary[]> {
  return listImages(readDb(ctx));
}

/** Which image family ("nvidia" | "amd") runs on a GPU vendor: the launch form filters images with it. */
export { acceleratorOfVendor } from "./images";

export type CostEstimate = { hours: number; usdPerHour: number | null; usd: number | null };

/**
 * Cost so far per instance, as an estimate: hours spent in the states metering bills as compute (from the
 * instance's events, up to now) × the catalog price in force now for its type, region and pricing model. The
 * metered ledger is the truth; this is what the console shows next to an instance until it reads that.
 */
export async function estimateInstanceCosts(
  ctx: Ctx,
  orgSlug: string,
  instanceIds: readonly string[],
): Promise<Map<string, CostEstimate>> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const out = new Map<string, CostEstimate>();
  if (instanceIds.length === 0) return out;
  const now = nowOf(ctx);
  const res = await readDb(ctx).execute<{
    id: string;
    instance_type_id: string;
    region_code: string;
    pricing_model: "on_demand" | "spot" | "reserved_1m" | "reserved_1y";
    seconds: number;
  }>(sql`
    with ev as (
      select e.instance_id, e.to_state, e.at,
        lead(e.at) over (partition by e.instance_id order by e.at, e.id) as next_at
      from instance_events e
      where e.org_id = ${org.id} and e.instance_id = any(${uuidArray(instanceIds)})
    )
    select i.id, i.instance_type_id, i.region_code, i.pricing_model,
      coalesce((
        select sum(extract(epoch from (least(coalesce(ev.next_at, ${now}), ${now}) - ev.at)))
        from ev where ev.instance_id = i.id and ev.to_state::text = any(${textArray(COMPUTE_STATES)})
          and ev.at < ${now}
      ), 0)::float8 as seconds
    from instances i
    where i.org_id = ${org.id} and i.id = any(${uuidArray(instanceIds)})`);
  const prices = new Map<string, number | null>();
  for (const r of res.rows) {
    const key = `${r.instance_type_id}|${r.region_code}|${r.pricing_model}`;
    if (!prices.has(key)) {
      const p = await priceAt(r.instance_type_id, r.region_code, r.pricing_model, now, readDb(ctx));
      prices.set(key, p?.usdPerHour ?? null);
    }
    const usdPerHour = prices.get(key) ?? null;
    const hours = Math.max(0, Number(r.seconds)) / 3600;
    out.set(r.id, {
      hours,
      usdPerHour,
      usd: usdPerHour === null ? null : Math.round(hours * usdPerHour * 100) / 100,
    });
  }
  return out;
}
