import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { type Ctx, nowOf, textFilter } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { PRICING_MODELS } from "./schemas";

const pricePointSchema = z.object({
  id: z.uuid(),
  usdPerHour: z.number(),
  effectiveFrom: z.date(),
});

export const priceRowSchema = z.object({
  instanceTypeId: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuCount: z.number().int(),
  migProfile: z.string().nullable(),
  /** GPUs the instance type holds: its count, or the MIG slice's fraction of one GPU. */
  gpuShare: z.number(),
  regionCode: z.string(),
  pricingModel: z.enum(PRICING_MODELS),
  /** The price in force now; null when the type is not on sale now (only scheduled). */
  current: pricePointSchema.nullable(),
  /** The current price per GPU-hour (price / gpuShare). */
  perGpuUsd: z.number().nullable(),
  /** Public market median on-demand USD per GPU-hour for this GPU model; null where unknown. */
  marketMedianPerGpu: z.number().nullable(),
  /** The market range for this GPU model: 10th and 90th percentile of the same offers; null where unknown. */
  marketP10PerGpu: z.number().nullable(),
  marketP90PerGpu: z.number().nullable(),
  /** The margin: perGpuUsd / marketMedianPerGpu - 1 (negative: below the market median). */
  vsMarket: z.number().nullable(),
  /** Changes that take effect later, earliest first (each can be cancelled until it does). */
  scheduled: z.array(pricePointSchema),
});
export type PriceRow = z.infer<typeof priceRowSchema>;
export const priceListSchema = z.object({ items: z.array(priceRowSchema) });

export const priceFiltersSchema = z.object({ region: textFilter, gpuModel: textFilter });
export type PriceFilters = { region?: string; gpuModel?: string };

type Raw = Omit<PriceRow, "current" | "scheduled" | "gpuShare"> & {
  gpuShare: string | number;
  current: { id: string; usdPerHour: string; effectiveFrom: string } | null;
  scheduled: Array<{ id: string; usdPerHour: string; effectiveFrom: string }> | null;
  marketMedianPerGpu: number | null;
  marketP10PerGpu: number | null;
  marketP90PerGpu: number | null;
};

const point = (p: { id: string; usdPerHour: string; effectiveFrom: string }) => ({
  id: p.id,
  usdPerHour: Number(p.usdPerHour),
  effectiveFrom: new Date(p.effectiveFrom),
});

/**
 * Operators' price book: every instance type × region × pricing model on sale now or scheduled, with the
 * price in force, its per-GPU-hour figure against the public market median (the margin, the catalog's
 * comparison) and the market's 10th–90th percentile range, and the changes still to come. Ordered by GPU model, instance type, region, pricing model.
 */
export async function listPrices(ctx: Ctx, filters: PriceFilters = {}): Promise<PriceRow[]> {
  requireOperator(ctx);
  const f = priceFiltersSchema.parse(filters);
  const now = nowOf(ctx);
  const { rows } = await readDb(ctx).execute<Raw>(sql`
    with k as (
      select distinct p.instance_type_id, p.region_code, p.pricing_model
      from prices p join instance_types it on it.id = p.instance_type_id
      where (p.effective_to is null or p.effective_to > ${now})
        and (${f.region ?? null}::text is null or p.region_code = ${f.region ?? null})
        and (${f.gpuModel ?? null}::text is null or it.gpu_model_id = ${f.gpuModel ?? null})
    )
    select k.instance_type_id as "instanceTypeId", it.gpu_model_id as "gpuModelId",
      gm.name as "gpuModelName", it.gpu_count as "gpuCount", it.mig_profile as "migProfile",
      case when it.mig_profile is null then it.gpu_count::numeric else coalesce(mp.slices, 7) / 7.0 end
        as "gpuShare",
      k.region_code as "regionCode", k.pricing_model as "pricingModel",
      gm.market_median_usd_per_gpu_hour as "marketMedianPerGpu",
      gm.market_p10_usd_per_gpu_hour as "marketP10PerGpu", gm.market_p90_usd_per_gpu_hour as "marketP90PerGpu",
      (select json_build_object('id', c.id, 'usdPerHour', c.usd_per_hour, 'effectiveFrom', c.effective_from)
        from prices c
        where c.instance_type_id = k.instance_type_id and c.region_code = k.region_code
          and c.pricing_model = k.pricing_model and c.effective_from <= ${now}
          and (c.effective_to is null or c.effective_to > ${now})
        order by c.effective_from desc limit 1) as current,
      (select json_agg(json_build_object('id', s.id, 'usdPerHour', s.usd_per_hour,
          'effectiveFrom', s.effective_from) order by s.effective_from)
        from prices s
        where s.instance_type_id = k.instance_type_id and s.region_code = k.region_code
          and s.pricing_model = k.pricing_model and s.effective_from > ${now}) as scheduled
    from k
    join instance_types it on it.id = k.instance_type_id
    join gpu_models gm on gm.id = it.gpu_model_id
    left join lateral (
      select (e->>'slices')::int as slices from jsonb_array_elements(gm.mig_profiles) e
      where e->>'name' = it.mig_profile limit 1
    ) mp on true
    order by gm.name, it.gpu_model_id, it.mig_profile nulls first, it.gpu_count, k.instance_type_id,
      k.region_code, k.pricing_model`);
  return rows.map((r) => {
    const share = Number(r.gpuShare);
    const current = r.current ? point(r.current) : null;
    const perGpuUsd = current ? current.usdPerHour / share : null;
    const orNull = (x: number | null) => (x === null ? null : Number(x));
    const median = orNull(r.marketMedianPerGpu);
    return {
      ...r,
      gpuShare: share,
      current,
      perGpuUsd,
      marketMedianPerGpu: median,
      marketP10PerGpu: orNull(r.marketP10PerGpu),
      marketP90PerGpu: orNull(r.marketP90PerGpu),
      vsMarket: perGpuUsd !== null && median ? perGpuUsd / median - 1 : null,
      scheduled: (r.scheduled ?? []).map(point),
    };
  });
}

/** Every instance type with its GPU model's name, for the operator's price form. Operators only. */
export async function listInstanceTypeChoices(
  ctx: Ctx,
): Promise<Array<{ id: string; gpuModelName: string }>> {
  requireOperator(ctx);
  const { rows } = await readDb(ctx).execute<{ id: string; gpuModelName: string }>(sql`
    select it.id, gm.name as "gpuModelName" from instance_types it join gpu_models gm on gm.id = it.gpu_model_id
    order by gm.name, it.mig_profile nulls first, it.gpu_count, it.id`);
  return rows;
}
