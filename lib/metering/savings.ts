import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, parseInput } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { costScope } from "./access";
import { type CostRangeInput, costRangeSchema } from "./schemas";

export type ReservationUtilization = {
  reservationId: string;
  gpuModelId: string;
  regionCode: string;
  term: string;
  gpuCount: number;
  startsAt: Date;
  endsAt: Date;
  usedGpuHours: number;
  unusedGpuHours: number;
  /** used / (used + unused) over the metered hours of the range; null when none were metered. */
  utilizationPct: number | null;
  unusedCostUsd: number;
};

export type Savings = {
  /** Σ (on-demand − spot price) × hours over spot usage. */
  spotSavingsUsd: number;
  /** Σ (on-demand − reserved rate) × GPU-hours over covered usage. */
  reservationCoveredSavingsUsd: number;
  /** Reserved hours nobody used, billed anyway. */
  reservationUnusedCostUsd: number;
  reservationNetSavingsUsd: number;
  reservations: ReservationUtilization[];
};

/** Spot and reservation savings against on-demand list prices, and each reservation's utilization. */
export async function savings(ctx: Ctx, orgSlug: string, raw: CostRangeInput): Promise<Savings> {
  const input = parseInput(costRangeSchema, raw);
  const { org } = await costScope(ctx, orgSlug, null);
  const exec = readDb(ctx);
  const totals = await exec.execute<{ spot: string; covered: string; unused: string }>(sql`
    select
      coalesce(sum((list_unit_price - unit_price) * quantity * seconds / 3600)
        filter (where kind = 'compute' and pricing_model = 'spot' and list_unit_price is not null), 0) as spot,
      coalesce(sum((list_unit_price - unit_price) * quantity * seconds / 3600)
        filter (where kind = 'compute' and reservation_id is not null and list_unit_price is not null), 0) as covered,
      coalesce(sum(amount) filter (where kind = 'reservation_commitment'), 0) as unused
    from usage_records
    where org_id = ${org.id} and period_start >= ${input.from} and period_start < ${input.to}`);
  const per = await exec.execute<{
    id: string;
    gpu_model_id: string;
    region_code: string;
    term: string;
    gpu_count: number;
    starts_at: Date;
    ends_at: Date;
    used: string;
    unused: string;
    unused_cost: string;
  }>(sql`
    select r.id, r.gpu_model_id, r.region_code, r.term, r.gpu_count, r.starts_at, r.ends_at,
      coalesce(sum(u.quantity * u.seconds / 3600) filter (where u.kind = 'compute'), 0) as used,
      coalesce(sum(u.quantity * u.seconds / 3600) filter (where u.kind = 'reservation_commitment'), 0) as unused,
      coalesce(sum(u.amount) filter (where u.kind = 'reservation_commitment'), 0) as unused_cost
    from reservations r
    left join usage_records u on u.reservation_id = r.id and u.org_id = r.org_id
      and u.period_start >= ${input.from} and u.period_start < ${input.to}
    where r.org_id = ${org.id} and r.starts_at < ${input.to} and r.ends_at > ${input.from}
    group by r.id
    order by r.starts_at, r.id`);
  const t = totals.rows[0];
  const covered = Number(t?.covered ?? 0);
  const unused = Number(t?.unused ?? 0);
  return {
    spotSavingsUsd: Number(t?.spot ?? 0),
    reservationCoveredSavingsUsd: covered,
    reservationUnusedCostUsd: unused,
    reservationNetSavingsUsd: covered - unused,
    reservations: per.rows.map((r) => {
      const used = Number(r.used);
      const idle = Number(r.unused);
      return {
        reservationId: r.id,
        gpuModelId: r.gpu_model_id,
        regionCode: r.region_code,
        term: r.term,
        gpuCount: r.gpu_count,
        startsAt: new Date(r.starts_at),
        endsAt: new Date(r.ends_at),
        usedGpuHours: used,
        unusedGpuHours: idle,
        utilizationPct: used + idle > 0 ? Math.round((used / (used + idle)) * 1000) / 10 : null,
        unusedCostUsd: Number(r.unused_cost),
      };
    }),
  };
}
