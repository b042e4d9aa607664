import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { textArray } from "./sql";
import { QUOTA_STATES } from "./states";

export type ReservedTerm = "reserved_1y" | "reserved_1m";

/**
 * Unused reserved capacity (slices) per term for an organization × GPU model × region at `now`: the
 * reservations in force minus what its reserved instances hold (queued or running). Negative = over-drawn.
 */
export async function reservationRoom(
  tx: Tx,
  input: { orgId: string; gpuModelId: string; regionCode: string; now: Date },
): Promise<Map<ReservedTerm, number>> {
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
    select r.term, r.reserved, coalesce(u.used, 0)::int as used from r left join u on u.term = r.term`);
  return new Map(res.rows.map((r) => [r.term, r.reserved - r.used]));
}

/**
 * The reservation term a "reserved" launch of `slices` would draw on; longer terms first (they are paid for
 * whether used or not). Null when no term has room.
 */
export async function reservedTermWithRoom(
  tx: Tx,
  input: { orgId: string; gpuModelId: string; regionCode: string; slices: number; now: Date },
): Promise<ReservedTerm | null> {
  const room = await reservationRoom(tx, input);
  for (const term of ["reserved_1y", "reserved_1m"] as const) {
    if ((room.get(term) ?? -1) >= input.slices) return term;
  }
  return null;
}
