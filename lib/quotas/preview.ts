import "server-only";
import { sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { readDb, type Tx } from "@/lib/db/client";
import { quotaStanding } from "./admission";
import { SEEDED_QUOTA_GPUS } from "./levels";
import { gpusOfSlices } from "./units";

export type QuotaLeft = {
  gpuModelId: string;
  regionCode: string;
  /** Nominal plus borrowing limit: the most the organization may queue and hold. */
  limitGpus: number;
  nominalGpus: number;
  borrowingLimitGpus: number;
  usedGpus: number;
  leftGpus: number;
  /** Of a launch needing `gpusNeeded`: the part within nominal (guaranteed) and beyond it (borrowed). */
  guaranteedGpus: number;
  borrowedGpus: number;
  /** Idle cohort capacity the organization could borrow right now. */
  borrowableNowGpus: number;
  /** True when no quotas row exists and a default applies. */
  fromDefault: boolean;
};

/** For the launch page: how much may still be launched, and how a launch of `slices` would split. */
export async function quotaLeft(
  ctx: Ctx,
  orgSlug: string,
  gpuModelId: string,
  regionCode: string,
  slices = 0,
): Promise<QuotaLeft> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const s = await quotaStanding(readDb(ctx), { orgId: org.id, gpuModelId, regionCode });
  const limit = s.nominal + s.borrowingLimit;
  const guaranteed = Math.max(0, Math.min(slices, s.nominal - s.footprint));
  return {
    gpuModelId,
    regionCode,
    limitGpus: gpusOfSlices(limit),
    nominalGpus: gpusOfSlices(s.nominal),
    borrowingLimitGpus: gpusOfSlices(s.borrowingLimit),
    usedGpus: gpusOfSlices(s.footprint),
    leftGpus: gpusOfSlices(Math.max(0, limit - s.footprint)),
    guaranteedGpus: gpusOfSlices(guaranteed),
    borrowedGpus: gpusOfSlices(Math.max(0, slices - guaranteed)),
    borrowableNowGpus: gpusOfSlices(s.borrowableNow),
    fromDefault: s.source !== "organization",
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
