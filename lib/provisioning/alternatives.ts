import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { currentPrices, loadAllOfferings, type Offering, type PricingModelDb, priceKey } from "./offerings";
import { DEFAULT_QUOTA_GPUS } from "./quota";
import { textArray } from "./sql";
import { QUOTA_STATES, SLICES_PER_GPU } from "./states";

export type Alternative = {
  /** region: same offering elsewhere; spot: the spot price; gpu_model: a GPU with at least the memory; mig: a slice. */
  kind: "region" | "spot" | "gpu_model" | "mig";
  regionCode: string;
  instanceTypeId: string;
  gpuModelId: string;
  gpuModelName: string;
  gpuCount: number;
  /** Per GPU (or per slice). */
  gpuMemoryGib: number;
  pricingModel: PricingModelDb;
  usdPerHour: string;
};

type Target = { regionCode: string; offering: Offering; pricingModel: PricingModelDb };

const PER_KIND = 3;

/**
 * Offerings that would start now where the target waits: free capacity on an active node, nobody queued for
 * that GPU model there, a current price, within the organization's quota and data-residency policy.
 */
export async function alternativesFor(
  exec: Executor,
  org: { id: string; allowedJurisdictions: string[] },
  target: Target,
  now: Date,
): Promise<Alternative[]> {
  const regionRows = await exec.execute<{ code: string }>(sql`
    select code from regions where active
      and (${org.allowedJurisdictions.length === 0} or jurisdiction = any(${textArray(org.allowedJurisdictions)}))`);
  const regions = regionRows.rows.map((r) => r.code);
  if (regions.length === 0) return [];
  const capRows = await exec.execute<{ k: string; free_whole: number; max_mig_free: number }>(sql`
    with used as (
      select node_gpu_id, sum(slices)::int as used from gpu_allocations where released_at is null group by 1
    ), per_node as (
      select n.region_code || '|' || n.gpu_model_id as k,
        count(*) filter (where not g.mig_enabled and coalesce(u.used, 0) = 0)::int as free_whole,
        coalesce(max(7 - coalesce(u.used, 0)) filter (where g.mig_enabled), 0)::int as max_mig_free
      from nodes n join node_gpus g on g.node_id = n.id left join used u on u.node_gpu_id = g.id
      where n.status = 'active' and n.region_code = any(${textArray(regions)})
      group by n.id, n.region_code, n.gpu_model_id
    )
    select k, max(free_whole)::int as free_whole, max(max_mig_free)::int as max_mig_free from per_node group by k`);
  const caps = new Map(capRows.rows.map((r) => [r.k, r]));
  const queued = await exec.execute<{ k: string }>(sql`
    select distinct region_code || '|' || gpu_model_id as k from instances
    where state = 'queued' and region_code = any(${textArray(regions)})`);
  const busy = new Set(queued.rows.map((r) => r.k));
  const quotaRows = await exec.execute<{ k: string; left_slices: number }>(sql`
    with used as (
      select gpu_model_id, region_code, sum(gpu_count * slices_per_gpu)::int as used from instances
      where org_id = ${org.id} and state = any(${textArray(QUOTA_STATES)}::instance_state[])
      group by 1, 2
    )
    select u.region_code || '|' || u.gpu_model_id as k,
      (coalesce(q.max_gpus, ${DEFAULT_QUOTA_GPUS}) * 7 - u.used)::int as left_slices
    from used u left join quotas q
      on q.org_id = ${org.id} and q.gpu_model_id = u.gpu_model_id and q.region_code = u.region_code
    union all
    select q.region_code || '|' || q.gpu_model_id, q.max_gpus * 7 from quotas q
    where q.org_id = ${org.id}
      and not exists (select 1 from used u where u.gpu_model_id = q.gpu_model_id and u.region_code = q.region_code)`);
  const quotaLeft = new Map(quotaRows.rows.map((r) => [r.k, r.left_slices]));
  const prices = await currentPrices(exec, regions, now);

  const startsNow = (region: string, o: Offering) => {
    const k = `${region}|${o.gpuModelId}`;
    const cap = caps.get(k);
    const need = o.gpuCount * o.slicesPerGpu;
    const fits =
      o.slicesPerGpu < SLICES_PER_GPU
        ? (cap?.max_mig_free ?? 0) >= o.slicesPerGpu
        : (cap?.free_whole ?? 0) >= o.gpuCount;
    return fits && !busy.has(k) && (quotaLeft.get(k) ?? DEFAULT_QUOTA_GPUS * SLICES_PER_GPU) >= need;
  };
  const t = target.offering;
  const basePm: PricingModelDb = target.pricingModel === "spot" ? "spot" : "on_demand";
  const offerings = await loadAllOfferings(exec);
  const found: Alternative[] = [];
  const consider = (kind: Alternative["kind"], o: Offering, region: string, pm: PricingModelDb) => {
    const usd = prices.get(priceKey(o.instanceTypeId, region, pm));
    if (!usd || !startsNow(region, o)) return;
    found.push({
      kind,
      regionCode: region,
      instanceTypeId: o.instanceTypeId,
      gpuModelId: o.gpuModelId,
      gpuModelName: o.gpuModelName,
      gpuCount: o.gpuCount,
      gpuMemoryGib: o.gpuMemoryGib,
      pricingModel: pm,
      usdPerHour: usd,
    });
  };
  for (const region of regions) {
    if (region !== target.regionCode) consider("region", t, region, basePm);
    if (target.pricingModel !== "spot") consider("spot", t, region, "spot");
    for (const o of offerings) {
      const whole = o.slicesPerGpu >= SLICES_PER_GPU;
      if (
        o.gpuModelId !== t.gpuModelId &&
        whole === t.slicesPerGpu >= SLICES_PER_GPU &&
        o.gpuCount === t.gpuCount &&
        o.gpuMemoryGib >= t.gpuMemoryGib
      ) {
        consider("gpu_model", o, region, basePm);
      }
      // A slice of the same GPU: less memory and compute, but it may start at once on a MIG-mode GPU.
      if (!whole && o.gpuModelId === t.gpuModelId && t.slicesPerGpu >= SLICES_PER_GPU && t.gpuCount === 1) {
        consider("mig", o, region, basePm);
      }
    }
  }
  const byKind = new Map<string, Alternative[]>();
  // Cheapest first; slices biggest first (closest to the GPU asked for).
  const order = (x: Alternative, y: Alternative) =>
    x.kind === "mig" && y.kind === "mig"
      ? y.gpuMemoryGib - x.gpuMemoryGib || Number(x.usdPerHour) - Number(y.usdPerHour)
      : Number(x.usdPerHour) - Number(y.usdPerHour);
  for (const a of found.sort(order)) {
    const list = byKind.get(a.kind) ?? [];
    if (list.length < PER_KIND) list.push(a);
    byKind.set(a.kind, list);
  }
  return (["region", "spot", "gpu_model", "mig"] as const).flatMap((k) => byKind.get(k) ?? []);
}
