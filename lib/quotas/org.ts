import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { requireOrgAccess } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, NotFoundError, nowOf, parseInput, ValidationError } from "@/lib/core";
import { inTx, readDb } from "@/lib/db/client";
import { projectQuotas, projects } from "@/lib/db/schema";
import { lockQuota, quotaStanding } from "./admission";
import { projectShareSchema, QUOTA_FIELD_MESSAGES } from "./schemas";
import { gpusOfSlices } from "./units";

export type OrgQuotaRow = {
  gpuModelId: string;
  gpuModelName: string;
  regionCode: string;
  nominalGpus: number;
  borrowingLimitGpus: number;
  /** Held now (provisioning, running, stopping). */
  inUseGpus: number;
  /** Held beyond nominal, on capacity borrowed from the cohort. */
  borrowedGpus: number;
  /** What the organization could borrow right now: idle cohort capacity within its borrowing limit. */
  availableToBorrowGpus: number;
  inCohort: boolean;
  fromDefault: boolean;
  shares: Array<{ projectSlug: string; projectName: string; shareGpus: number }>;
};

/**
 * The organization's quotas (any member): each GPU model × region the catalog offers or it holds, with
 * nominal, in use, borrowed, available to borrow now and the project shares.
 */
export async function listOrgQuotas(ctx: Ctx, orgSlug: string): Promise<OrgQuotaRow[]> {
  const { org } = await requireOrgAccess(ctx, orgSlug, "viewer");
  const exec = readDb(ctx);
  const keys = await exec.execute<{ model: string; model_name: string; region: string }>(sql`
    select k.model, m.name as model_name, k.region from (
      select distinct t.gpu_model_id as model, p.region_code as region
        from prices p join instance_types t on t.id = p.instance_type_id
      union select gpu_model_id, region_code from quotas where org_id = ${org.id}
      union select gpu_model_id, region_code from instances
        where org_id = ${org.id} and state in ('provisioning', 'running', 'stopping')
    ) k join gpu_models m on m.id = k.model join regions r on r.code = k.region and r.active
    order by m.name, k.region`);
  const shares = await exec.execute<{
    model: string;
    region: string;
    slug: string;
    name: string;
    share: number;
  }>(sql`
    select q.gpu_model_id as model, q.region_code as region, p.slug, p.name, q.share_gpus as share
    from project_quotas q join projects p on p.id = q.project_id where q.org_id = ${org.id} order by p.name`);
  const out: OrgQuotaRow[] = [];
  for (const k of keys.rows) {
    const s = await quotaStanding(exec, { orgId: org.id, gpuModelId: k.model, regionCode: k.region });
    const borrowed = Math.max(0, s.held - s.nominal);
    out.push({
      gpuModelId: k.model,
      gpuModelName: k.model_name,
      regionCode: k.region,
      nominalGpus: gpusOfSlices(s.nominal),
      borrowingLimitGpus: gpusOfSlices(s.borrowingLimit),
      inUseGpus: gpusOfSlices(s.held),
      borrowedGpus: gpusOfSlices(borrowed),
      availableToBorrowGpus: gpusOfSlices(
        Math.max(0, Math.min(s.borrowableNow, s.borrowingLimit - borrowed)),
      ),
      inCohort: s.inCohort,
      fromDefault: s.source !== "organization",
      shares: shares.rows
        .filter((r) => r.model === k.model && r.region === k.region)
        .map((r) => ({ projectSlug: r.slug, projectName: r.name, shareGpus: Number(r.share) })),
    });
  }
  return out;
}

/**
 * Organization admins: a project's share of the organization's nominal quota for a GPU model × region
 * (empty = no share). All shares together may not exceed the nominal. Another organization's project is a
 * 404. Audited.
 */
export async function setProjectShare(ctx: Ctx, orgSlug: string, raw: unknown) {
  return inTx(ctx, async (c) => {
    const { tx } = c;
    const { org } = await requireOrgAccess(c, orgSlug, "admin");
    const input = parseInput(projectShareSchema, raw);
    const [project] = await tx
      .select()
      .from(projects)
      .where(and(eq(projects.orgId, org.id), eq(projects.slug, input.project)));
    if (!project) throw new NotFoundError("Project");
    const k = { orgId: org.id, gpuModelId: input.gpuModelId, regionCode: input.regionCode };
    await lockQuota(tx, k);
    const match = and(
      eq(projectQuotas.projectId, project.id),
      eq(projectQuotas.gpuModelId, k.gpuModelId),
      eq(projectQuotas.regionCode, k.regionCode),
    );
    const [prior] = await tx.select().from(projectQuotas).where(match);
    if (input.shareGpus === null) {
      await tx.delete(projectQuotas).where(match);
    } else {
      const s = await quotaStanding(tx, k);
      const others = await tx.execute<{ total: number }>(sql`
        select coalesce(sum(share_gpus), 0)::int as total from project_quotas
        where org_id = ${org.id} and gpu_model_id = ${k.gpuModelId} and region_code = ${k.regionCode}
          and project_id <> ${project.id}`);
      if (Number(others.rows[0]?.total ?? 0) + input.shareGpus > gpusOfSlices(s.nominal)) {
        throw ValidationError.field("shareGpus", QUOTA_FIELD_MESSAGES.shareAboveNominal);
      }
      const values = { shareGpus: input.shareGpus, updatedAt: nowOf(ctx) };
      await tx
        .insert(projectQuotas)
        .values({ ...k, projectId: project.id, ...values })
        .onConflictDoUpdate({
          target: [projectQuotas.projectId, projectQuotas.gpuModelId, projectQuotas.regionCode],
          set: values,
        });
    }
    await writeAudit(tx, ctx.actor, {
      orgId: org.id,
      action: "quota.project_share_set",
      targetType: "project",
      targetId: project.id,
      data: { ...input, before: prior?.shareGpus ?? null },
      at: nowOf(ctx),
    });
    return { project: project.slug, shareGpus: input.shareGpus };
  });
}
