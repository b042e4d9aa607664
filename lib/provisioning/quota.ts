import "server-only";
import { sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { type Ctx, QuotaExceededError } from "@/lib/core";
import { type Executor, getDb, type Tx } from "@/lib/db/client";
import { advisoryXactLock, textArray } from "./sql";
import { QUOTA_STATES, SLICES_PER_GPU } from "./states";

/**
 * GPUs an organization may hold per GPU model × region when no `quotas` row says otherwise. Small on purpose:
 * a new tenant can try every offering, and an operator raises it on request.
 */
export const DEFAULT_QUOTA_GPUS = 8;
/** What the demo organizations get per offered GPU model × region. */
export const SEEDED_QUOTA_GPUS = 16;

/**
 * Quota counts GPU-equivalents: a whole GPU is 1, a MIG slice is its share of the GPU (slices / 7), so a
 * 1g slice does not use up a whole GPU of quota. Internally everything is in slices to stay exact.
 */
export function gpusOfSlices(slices: number): number {
  return Math.round((slices / SLICES_PER_GPU) * 100) / 100;
}

export type QuotaUse = { limitSlices: number; usedSlices: number; fromDefault: boolean };

/**
 * Serializes launches and starts for one (organization, GPU model, region): held until the transaction ends,
 * so two concurrent launches cannot both see the same free quota.
 */
export async function lockQuota(tx: Tx, orgId: string, gpuModelId: string, regionCode: string) {
  await tx.execute(advisoryXactLock("forja:quota", `${orgId}/${gpuModelId}/${regionCode}`));
}

export async function quotaUse(
  exec: Executor,
  orgId: string,
  gpuModelId: string,
  regionCode: string,
): Promise<QuotaUse> {
  const res = await exec.execute<{ max_gpus: number | null; used: number }>(sql`
    select
      (select max_gpus from quotas q
        where q.org_id = ${orgId} and q.gpu_model_id = ${gpuModelId} and q.region_code = ${regionCode}) as max_gpus,
      (select coalesce(sum(gpu_count * slices_per_gpu), 0)::int from instances i
        where i.org_id = ${orgId} and i.gpu_model_id = ${gpuModelId} and i.region_code = ${regionCode}
          and i.state = any(${textArray(QUOTA_STATES)}::instance_state[])) as used`);
  const row = res.rows[0];
  const maxGpus = row?.max_gpus ?? null;
  return {
    limitSlices: (maxGpus ?? DEFAULT_QUOTA_GPUS) * SLICES_PER_GPU,
    usedSlices: Number(row?.used ?? 0),
    fromDefault: maxGpus === null,
  };
}

/**
 * Throws a QuotaExceededError naming the limit, the use and the way to ask for more. Call after lockQuota.
 * `alreadyCounted`: the request's own row is already written in this transaction (and so in the count).
 */
export async function assertQuota(
  tx: Tx,
  input: {
    orgId: string;
    gpuModelId: string;
    gpuModelName: string;
    regionCode: string;
    slices: number;
    alreadyCounted?: boolean;
  },
): Promise<void> {
  const use = await quotaUse(tx, input.orgId, input.gpuModelId, input.regionCode);
  const others = use.usedSlices - (input.alreadyCounted ? input.slices : 0);
  if (others + input.slices <= use.limitSlices) return;
  const limitGpus = gpusOfSlices(use.limitSlices);
  const usedGpus = gpusOfSlices(others);
  const requestedGpus = gpusOfSlices(input.slices);
  throw new QuotaExceededError(
    `Quota exceeded for ${input.gpuModelName} in ${input.regionCode}: your organization may hold ${limitGpus} ` +
      `GPUs there, ${usedGpus} ${usedGpus === 1 ? "is" : "are"} already queued or in use, and this needs ` +
      `${requestedGpus} more. ` +
      "Stop or terminate an instance, or ask an organization admin to request more quota.",
    {
      gpuModelId: input.gpuModelId,
      regionCode: input.regionCode,
      limitGpus,
      usedGpus,
      requestedGpus,
      howToIncrease: "ask an organization admin to request more quota",
    },
  );
}

export type QuotaLeft = {
  gpuModelId: string;
  regionCode: string;
  limitGpus: number;
  usedGpus: number;
  leftGpus: number;
  /** True when no quota row exists and the platform default applies. */
  fromDefault: boolean;
};

/** For the launch page: how much of this GPU model the organization may still launch in the region. */
export async function quotaLeft(
  ctx: Ctx,
  orgSlug: string,
  gpuModelId: string,
  regionCode: string,
): Promise<QuotaLeft> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const use = await quotaUse(ctx.tx ?? getDb(), org.id, gpuModelId, regionCode);
  return {
    gpuModelId,
    regionCode,
    limitGpus: gpusOfSlices(use.limitSlices),
    usedGpus: gpusOfSlices(use.usedSlices),
    leftGpus: gpusOfSlices(Math.max(0, use.limitSlices - use.usedSlices)),
    fromDefault: use.fromDefault,
  };
}

/** Quota rows for every GPU model × region the catalog offers, for a seeded (demo) organization. */
export async function seedDefaultQuotas(tx: Tx, orgId: string, maxGpus = SEEDED_QUOTA_GPUS): Promise<void> {
  await tx.execute(sql`
    insert into quotas (org_id, gpu_model_id, region_code, max_gpus)
    select distinct ${orgId}::uuid, t.gpu_model_id, p.region_code, ${maxGpus}::int
    from prices p join instance_types t on t.id = p.instance_type_id
    on conflict do nothing`);
}
