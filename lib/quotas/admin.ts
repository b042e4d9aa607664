import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { ConflictError, type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { type Tx, withTx } from "@/lib/db/client";
import { cohortMembers, cohorts, organizations, quotaDefaults, quotas } from "@/lib/db/schema";
import { lockQuota, quotaStanding } from "./admission";
import {
  cohortMemberSchema,
  cohortSchema,
  QUOTA_FIELD_MESSAGES,
  setOrgQuotaSchema,
  setQuotaDefaultSchema,
} from "./schemas";
import { gpusOfSlices } from "./units";

export type ReclaimPreview = { instanceId: string; name: string; gpus: number; borrowed: boolean };

/**
 * An organization's levels for one GPU model × region as an operator sets them: what the API's ETag covers
 * (GET /admin/quotas rows and PUT's answer), so a change made by another operator since is a 412.
 */
export type QuotaLevelsView = {
  orgId: string;
  gpuModelId: string;
  regionCode: string;
  source: "organization" | "default" | "builtin";
  nominalGpus: number;
  borrowingLimitGpus: number;
  lendingLimitGpus: number | null;
};
export const quotaLevelsView = (r: QuotaLevelsView): QuotaLevelsView => ({
  orgId: r.orgId,
  gpuModelId: r.gpuModelId,
  regionCode: r.regionCode,
  source: r.source,
  nominalGpus: r.nominalGpus,
  borrowingLimitGpus: r.borrowingLimitGpus,
  lendingLimitGpus: r.lendingLimitGpus,
});

/**
 * Running instances that holding `excessSlices` less reclaims, in the gate's order (lib/quotas/gate.ts):
 * marked borrowed first, lowest priority, youngest.
 */
async function reclaimPreview(
  tx: Tx,
  k: { orgId: string; gpuModelId: string; regionCode: string },
  excessSlices: number,
): Promise<ReclaimPreview[]> {
  const res = await tx.execute<{ id: string; name: string; slices: number; borrowed: boolean }>(sql`
    select id, name, gpu_count * slices_per_gpu as slices, borrowed from instances
    where org_id = ${k.orgId} and gpu_model_id = ${k.gpuModelId} and region_code = ${k.regionCode}
      and state = 'running'
    order by borrowed desc, priority, started_at desc`);
  const out: ReclaimPreview[] = [];
  let left = excessSlices;
  for (const r of res.rows) {
    if (left <= 0) break;
    out.push({ instanceId: r.id, name: r.name, gpus: gpusOfSlices(Number(r.slices)), borrowed: r.borrowed });
    left -= Number(r.slices);
  }
  return out;
}

/**
 * Operator: set an organization's nominal, borrowing and lending limits for a GPU model × region. Going
 * below what it holds within nominal now (or below what it holds in all) needs `confirmReclaim`: without it
 * a Conflict lists the running instances the next scheduler tick reclaims with notice (the gate takes back
 * what is held beyond the new limit). Audited with the levels before and after.
 */
export async function setOrgQuota(
  ctx: Ctx,
  raw: unknown,
  opts: { precondition?: (current: QuotaLevelsView) => void } = {},
): Promise<QuotaLevelsView> {
  requireOperator(ctx);
  const input = parseInput(setOrgQuotaSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, input.orgId));
    // The organization is a choice in the form (and a field of the API's body): a stale one is a field error.
    if (!org) throw ValidationError.field("orgId", QUOTA_FIELD_MESSAGES.organizationUnknown);
    const k = { orgId: org.id, gpuModelId: input.gpuModelId, regionCode: input.regionCode };
    await assertModelRegion(tx, k.gpuModelId, k.regionCode);
    await lockQuota(tx, k);
    const before = await quotaStanding(tx, k);
    opts.precondition?.({
      ...k,
      source: before.source,
      nominalGpus: gpusOfSlices(before.nominal),
      borrowingLimitGpus: gpusOfSlices(before.borrowingLimit),
      lendingLimitGpus: before.lendingLimit === null ? null : gpusOfSlices(before.lendingLimit),
    });
    // What the scheduler's gate reclaims once the new levels hold: what it holds beyond nominal plus, in a
    // cohort, its borrowing limit (outside a cohort nothing may be borrowed). Within that limit in a cohort,
    // the part above the new nominal stays as borrowed work, reclaimed only when a lender needs it.
    const newLimit = (input.nominalGpus + (before.inCohort ? input.borrowingLimitGpus : 0)) * 7;
    const excess = before.held - newLimit;
    const guaranteedNow = Math.min(before.held, before.nominal);
    if ((input.nominalGpus * 7 < guaranteedNow || excess > 0) && !input.confirmReclaim) {
      const reclaim = await reclaimPreview(tx, k, excess);
      throw new ConflictError(
        `${org.name} holds ${gpusOfSlices(guaranteedNow)} GPUs within its nominal quota; lowering it to ` +
          `${input.nominalGpus} reclaims ${reclaim.length} running instance(s) with notice. Confirm to go ahead.`,
        {
          reason: reclaim.length > 0 ? "quota_below_use" : "quota_below_use_borrowed",
          org: org.name,
          heldGpus: gpusOfSlices(before.held),
          guaranteedGpus: gpusOfSlices(guaranteedNow),
          nominalGpus: input.nominalGpus,
          reclaimCount: reclaim.length,
          reclaimNames: reclaim.map((r) => r.name).join(", "),
          reclaim,
        },
      );
    }
    const now = nowOf(ctx);
    const values = {
      maxGpus: input.nominalGpus,
      borrowingLimitGpus: input.borrowingLimitGpus,
      lendingLimitGpus: input.lendingLimitGpus,
      expiresAt: null,
      revertToGpus: null,
      updatedAt: now,
    };
    await tx
      .insert(quotas)
      .values({ ...k, ...values })
      .onConflictDoUpdate({ target: [quotas.orgId, quotas.gpuModelId, quotas.regionCode], set: values });
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "quota.updated",
      targetType: "quota",
      targetId: `${k.gpuModelId}/${k.regionCode}`,
      data: {
        gpuModelId: k.gpuModelId,
        regionCode: k.regionCode,
        before: {
          nominalGpus: gpusOfSlices(before.nominal),
          borrowingLimitGpus: gpusOfSlices(before.borrowingLimit),
          lendingLimitGpus: before.lendingLimit === null ? null : gpusOfSlices(before.lendingLimit),
          source: before.source,
        },
        after: {
          nominalGpus: input.nominalGpus,
          borrowingLimitGpus: input.borrowingLimitGpus,
          lendingLimitGpus: input.lendingLimitGpus,
        },
      },
      at: now,
    });
    return {
      ...k,
      source: "organization" as const,
      nominalGpus: input.nominalGpus,
      borrowingLimitGpus: input.borrowingLimitGpus,
      lendingLimitGpus: input.lendingLimitGpus,
    };
  });
}

async function assertModelRegion(tx: Tx, model: string, region: string) {
  const res = await tx.execute<{ m: boolean; r: boolean }>(sql`
    select exists(select 1 from gpu_models where id = ${model}) as m,
           exists(select 1 from regions where code = ${region}) as r`);
  const row = res.rows[0];
  const errors: Record<string, string[]> = {};
  if (model !== "*" && !row?.m) errors.gpuModelId = [QUOTA_FIELD_MESSAGES.modelRequired];
  if (region !== "*" && !row?.r) errors.regionCode = [QUOTA_FIELD_MESSAGES.regionRequired];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** A quota default as the API's ETag covers it (GET /admin/quota-defaults rows and PUT's answer). */
export type QuotaDefaultView = {
  gpuModelId: string;
  regionCode: string;
  nominalGpus: number;
  borrowingLimitGpus: number;
  lendingLimitGpus: number | null;
};
export const quotaDefaultView = (r: QuotaDefaultView): QuotaDefaultView => ({
  gpuModelId: r.gpuModelId,
  regionCode: r.regionCode,
  nominalGpus: r.nominalGpus,
  borrowingLimitGpus: r.borrowingLimitGpus,
  lendingLimitGpus: r.lendingLimitGpus,
});

/**
 * Operator: what organizations without their own row get ('*' = any model or region). Audited. The
 * precondition sees the default as it is (locked), or null where there is none yet.
 */
export async function setQuotaDefault(
  ctx: Ctx,
  raw: unknown,
  opts: { precondition?: (current: QuotaDefaultView | null) => void } = {},
) {
  requireOperator(ctx);
  const input = parseInput(setQuotaDefaultSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    await assertModelRegion(tx, input.gpuModelId, input.regionCode);
    const now = nowOf(ctx);
    const values = {
      nominalGpus: input.nominalGpus,
      borrowingLimitGpus: input.borrowingLimitGpus,
      lendingLimitGpus: input.lendingLimitGpus,
      updatedAt: now,
    };
    const [prior] = await tx
      .select()
      .from(quotaDefaults)
      .where(
        and(eq(quotaDefaults.gpuModelId, input.gpuModelId), eq(quotaDefaults.regionCode, input.regionCode)),
      )
      .for("update");
    opts.precondition?.(prior ? quotaDefaultView(prior) : null);
    if (!input.confirmReclaim) {
      const over = await organizationsOverDefault(tx, input);
      if (over.length > 0) {
        const names = [...new Set(over.map((o) => o.name))];
        throw new ConflictError(
          `${names.length} organization(s) on this default hold more than it would allow (${names.slice(0, 5).join(", ")}` +
            `${names.length > 5 ? ", …" : ""}); the next scheduling pass reclaims their running work above it with ` +
            "notice. Confirm to go ahead.",
          {
            reason: "default_below_use",
            orgCount: names.length,
            orgNames: names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : ""),
            heldGpus: gpusOfSlices(over.reduce((n, o) => n + o.slices, 0)),
            nominalGpus: input.nominalGpus,
            over: over.map((o) => ({
              orgId: o.orgId,
              name: o.name,
              gpuModelId: o.gpuModelId,
              regionCode: o.regionCode,
              heldGpus: gpusOfSlices(o.slices),
            })),
          },
        );
      }
    }
    await tx
      .insert(quotaDefaults)
      .values({ gpuModelId: input.gpuModelId, regionCode: input.regionCode, ...values })
      .onConflictDoUpdate({ target: [quotaDefaults.gpuModelId, quotaDefaults.regionCode], set: values });
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "quota.default_updated",
      targetType: "quota_default",
      targetId: `${input.gpuModelId}/${input.regionCode}`,
      data: { before: prior ?? null, after: { ...input } },
      at: now,
    });
    return { gpuModelId: input.gpuModelId, regionCode: input.regionCode, ...values };
  });
}

/**
 * Organizations this default would govern (no quota row of their own for the GPU model × region, and no more
 * specific default) that hold more than its new limit there: nominal, plus the borrowing limit in a cohort.
 * The scheduler's gate reclaims what they hold above it (regionsOverQuota), so the operator confirms first.
 */
async function organizationsOverDefault(
  tx: Tx,
  d: { gpuModelId: string; regionCode: string; nominalGpus: number; borrowingLimitGpus: number },
): Promise<Array<{ orgId: string; name: string; gpuModelId: string; regionCode: string; slices: number }>> {
  const res = await tx.execute<{
    org_id: string;
    name: string;
    model: string;
    region: string;
    slices: number;
  }>(sql`
    with held as (
      select org_id, gpu_model_id, region_code, sum(gpu_count * slices_per_gpu)::int as slices from instances
      where state in ('provisioning', 'running', 'stopping')
        and (${d.gpuModelId} = '*' or gpu_model_id = ${d.gpuModelId})
        and (${d.regionCode} = '*' or region_code = ${d.regionCode})
      group by 1, 2, 3)
    select h.org_id, o.name, h.gpu_model_id as model, h.region_code as region, h.slices
    from held h
    join organizations o on o.id = h.org_id
    left join cohort_members m on m.org_id = h.org_id
    where not exists (select 1 from quotas q where q.org_id = h.org_id and q.gpu_model_id = h.gpu_model_id
        and q.region_code = h.region_code)
      and not exists (select 1 from quota_defaults x
        where x.gpu_model_id in (h.gpu_model_id, '*') and x.region_code in (h.region_code, '*')
          and ((x.gpu_model_id = '*')::int, (x.region_code = '*')::int)
            < ((${d.gpuModelId} = '*')::int, (${d.regionCode} = '*')::int))
      and h.slices > (${d.nominalGpus} + case when m.org_id is null then 0 else ${d.borrowingLimitGpus} end) * 7
    order by o.name, h.gpu_model_id, h.region_code`);
  return res.rows.map((r) => ({
    orgId: r.org_id,
    name: r.name,
    gpuModelId: r.model,
    regionCode: r.region,
    slices: Number(r.slices),
  }));
}

export async function createCohort(ctx: Ctx, raw: unknown) {
  requireOperator(ctx);
  const input = parseInput(cohortSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const [row] = await tx.insert(cohorts).values(input).onConflictDoNothing().returning();
    if (!row) throw ValidationError.field("name", QUOTA_FIELD_MESSAGES.cohortNameTaken);
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "cohort.created",
      targetType: "cohort",
      targetId: row.id,
      data: input,
      at: nowOf(ctx),
    });
    return row;
  });
}

/** An organization's cohort membership as the API's ETag covers it. */
export type CohortMemberView = { orgId: string; cohortId: string; weight: number };
export const cohortMemberView = (r: CohortMemberView): CohortMemberView => ({
  orgId: r.orgId,
  cohortId: r.cohortId,
  weight: Number(r.weight),
});

/**
 * Operator: put an organization in a cohort (moving it out of any other) with a fair-share weight. The
 * precondition sees the organization's membership as it is (locked), or null where it is in no cohort.
 */
export async function setCohortMember(
  ctx: Ctx,
  raw: unknown,
  opts: { precondition?: (current: CohortMemberView | null) => void } = {},
) {
  requireOperator(ctx);
  const input = parseInput(cohortMemberSchema, raw);
  return withTx(ctx.tx, async (tx) => {
    const [cohort] = await tx.select().from(cohorts).where(eq(cohorts.id, input.cohortId));
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, input.orgId));
    // Both are choices of the form: say which one is gone, at its field, both at once.
    const errors: Record<string, string[]> = {};
    if (!cohort) errors.cohortId = [QUOTA_FIELD_MESSAGES.cohortUnknown];
    if (!org) errors.orgId = [QUOTA_FIELD_MESSAGES.organizationUnknown];
    if (!cohort || !org) throw new ValidationError(errors);
    const [prior] = await tx
      .select()
      .from(cohortMembers)
      .where(eq(cohortMembers.orgId, org.id))
      .for("update");
    opts.precondition?.(prior ? cohortMemberView(prior) : null);
    const [saved] = await tx
      .insert(cohortMembers)
      .values(input)
      .onConflictDoUpdate({
        target: cohortMembers.orgId,
        set: { cohortId: input.cohortId, weight: input.weight },
      })
      .returning();
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "cohort.member_set",
      targetType: "cohort",
      targetId: cohort.id,
      data: { cohort: cohort.name, weight: input.weight, before: prior ?? null },
      at: nowOf(ctx),
    });
    // As stored (a real), so the ETag of this answer is the one GET /admin/cohorts shows.
    return cohortMemberView(saved as CohortMemberView);
  });
}

export async function removeCohortMember(
  ctx: Ctx,
  raw: unknown,
  opts: { precondition?: (current: CohortMemberView) => void } = {},
) {
  requireOperator(ctx);
  const { orgId } = parseInput(cohortMemberSchema.pick({ orgId: true }), raw);
  return withTx(ctx.tx, async (tx) => {
    const [held] = await tx.select().from(cohortMembers).where(eq(cohortMembers.orgId, orgId)).for("update");
    if (!held) throw new NotFoundError("Cohort membership");
    opts.precondition?.(cohortMemberView(held));
    const [row] = await tx.delete(cohortMembers).where(eq(cohortMembers.orgId, orgId)).returning();
    if (!row) throw new NotFoundError("Cohort membership");
    await writeAudit(tx, ctx.actor, {
      orgId,
      action: "cohort.member_removed",
      targetType: "cohort",
      targetId: row.cohortId,
      at: nowOf(ctx),
    });
  });
}
