import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { textArray } from "./sql";
import { QUOTA_STATES } from "./states";

export type ReservedTerm = "reserved_1y" | "reserved_1m";

/**
 * The reservation term a "reserved" launch of `slices` would draw on: the organization's reservations for the
 * GPU model × region active at `now`, minus what its reserved instances already hold. Longer terms first (they
 * are the ones paid for whether used or not). Null when no term has room. Call under the quota lock, which
 * also serializes reserved launches of the same model and region.
 */
export async function reservedTermWithRoom(
  tx: Tx,
  input: { orgId: string; gpuModelId: string; regionCode: string; slices: number; now: Date },
): Promise<ReservedTerm | null> {
  const res = await tx.execute<{ term: ReservedTerm; reserved: number; used: number }>(sql`
    with r as (
      select term, sum(gpu_count * 7)::int as reserved from reservations
      where org_id = ${input.orgId} and gpu_model_id = ${input.gpuModelId} and region_code = ${input.regionCode}
        and starts_at <= ${input.now} and ends_at > ${input.now}
      group by term
    ), u as (
      select pricing_model as term, sum(gpu_count * slices_per_gpu)::int as used from instances
      where org_id = ${input.orgId} and gpu_model_id = ${input.gpuModelId} and region_code = ${input.regionCode}
        and pricing_model in ('reserved_1m', 'reserved_1y')
        and state = any(${textArray(QUOTA_STATES)}::instance_state[])
      group by pricing_model
    )
    select r.term, r.reserved, coalesce(u.used, 0)::int as used from r left join u on u.term = r.term
    order by case r.term when 'reserved_1y' then 0 else 1 end`);
  for (const row of res.rows) {
    if (row.reserved - row.used >= input.slices) return row.term;
  }
  return null;
}
