import "server-only";
import { sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { getOffering, type Offering } from "./offerings";
import type { CompareKey, PricingModel } from "./schemas";

export type AvailabilityPoint = { at: Date; available: number };
export type ComparedOffering = Offering & { history: AvailabilityPoint[] };

const HOUR_MS = 3_600_000;

/**
 * How many instances of an offering could have been placed at each of `points` moments over the last `days`,
 * from the allocation history (an allocation counts from allocated_at until released_at) over the nodes active
 * now; the same rule as live availability (docs/catalog.md), replayed at each moment in one statement.
 */
async function availabilityHistory(
  ctx: Ctx,
  o: Offering,
  opts: { days: number; points: number },
): Promise<AvailabilityPoint[]> {
  const to = nowOf(ctx);
  const stepMs = Math.max(HOUR_MS, Math.floor((opts.days * 24 * HOUR_MS) / (opts.points - 1)));
  const from = new Date(to.getTime() - stepMs * (opts.points - 1));
  const slices = o.migSlices ?? 7;
  const { rows } = await readDb(ctx).execute<{ at: string; available: number }>(sql`
    with t as (
      select generate_series(${from}::timestamptz, ${to}::timestamptz, ${`${stepMs} milliseconds`}::interval) as at
    ),
    used as (
      select t.at, g.node_id, g.mig_enabled,
        least(7, coalesce(sum(a.slices), 0))::int as used
      from t
      cross join node_gpus g
      join nodes n on n.id = g.node_id and n.status = 'active'
        and n.region_code = ${o.regionCode} and n.gpu_model_id = ${o.gpuModelId}
      left join gpu_allocations a on a.node_gpu_id = g.id
        and a.allocated_at <= t.at and (a.released_at is null or a.released_at > t.at)
      group by t.at, g.id, g.node_id, g.mig_enabled
    ),
    per_node as (
      select at, node_id,
        count(*) filter (where not mig_enabled and used = 0)::int as whole_free,
        coalesce(sum((7 - used) / ${slices}) filter (where mig_enabled), 0)::int as mig_free
      from used group by at, node_id
    )
    select t.at, coalesce(sum(${o.migProfile ? sql`p.mig_free` : sql`p.whole_free / ${o.gpuCount}`}), 0)::int as available
    from t left join per_node p on p.at = t.at
    group by t.at order by t.at`);
  return rows.map((r) => ({ at: new Date(r.at), available: Number(r.available) }));
}

/**
 * Offerings side by side for the compare page, in the order asked, each with its availability over the last
 * week. One not on sale now (or unknown) is left out and reported in `missing`, so an old link still opens.
 */
export async function compareOfferings(
  ctx: Ctx,
  orgSlug: string,
  keys: CompareKey[],
  pricing: PricingModel = "on_demand",
): Promise<{ items: ComparedOffering[]; missing: CompareKey[] }> {
  await requireOrgAccess(ctx, orgSlug, "viewer");
  const found = await Promise.all(
    keys.map(async (key) => {
      try {
        const offering = await getOffering(ctx, orgSlug, { ...key, pricing });
        return { ...offering, history: await availabilityHistory(ctx, offering, { days: 7, points: 29 }) };
      } catch (e) {
        if (e instanceof NotFoundError) return key;
        throw e;
      }
    }),
  );
  return {
    items: found.filter((f): f is ComparedOffering => "history" in f),
    missing: found.filter((f): f is CompareKey => !("history" in f)),
  };
}
