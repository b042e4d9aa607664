import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type GateHolder, type GateInput, limitOf } from "./gate";
import { cohortOf, DEFAULT_QUOTA_GPUS, effectiveLevels, withCohortPeers } from "./levels";
import { SLICES_PER_GPU } from "./units";

/** States that hold GPUs and count as "held" for quota (an instance in its notice is already given back). */
export const HELD_STATES = ["provisioning", "running", "stopping"] as const;
const HELD = sql.raw(`('${HELD_STATES.join("','")}')`);

const uuids = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/**
 * One region's quota state for the gate: the organizations with queued work and their cohort peers, their
 * levels for every GPU model seen, what they hold, project shares, suspensions and the running instances
 * that could be reclaimed. Call under the region's placement lock so nothing it reads can grow meanwhile.
 */
export async function loadRegionQuotaState(
  exec: Executor,
  regionCode: string,
  queued: Array<{ orgId: string; projectId: string; modelId: string }>,
): Promise<Omit<GateInput, "requests" | "budgetBlocked">> {
  const heldRes = await exec.execute<{ org_id: string; model: string; slices: number }>(sql`
    select org_id, gpu_model_id as model, sum(gpu_count * slices_per_gpu)::int as slices from instances
    where region_code = ${regionCode} and state in ${HELD} group by 1, 2`);
  const queuedOrgs = [...new Set(queued.map((q) => q.orgId))];
  const orgIds = await withCohortPeers(exec, [
    ...new Set([...queuedOrgs, ...heldRes.rows.map((r) => r.org_id)]),
  ]);
  const orgs = await cohortOf(exec, orgIds);
  const models = [...new Set([...queued.map((q) => q.modelId), ...heldRes.rows.map((r) => r.model)])];
  const levels = await effectiveLevels(exec, orgIds, models, regionCode);
  const held = new Map(heldRes.rows.map((r) => [`${r.org_id}/${r.model}`, Number(r.slices)]));

  const projectIds = [...new Set(queued.map((q) => q.projectId))];
  const projectShares = new Map<string, { share: number; held: number }>();
  if (projectIds.length > 0) {
    const res = await exec.execute<{ project_id: string; model: string; share: number; held: number }>(sql`
      select p.project_id, p.gpu_model_id as model, p.share_gpus * 7 as share,
        coalesce((select sum(i.gpu_count * i.slices_per_gpu) from instances i
          where i.org_id = p.org_id and i.project_id = p.project_id and i.gpu_model_id = p.gpu_model_id
            and i.region_code = p.region_code and i.state in ${HELD}), 0)::int as held
      from project_quotas p where p.region_code = ${regionCode} and p.project_id = any(${uuids(projectIds)})`);
    for (const r of res.rows)
      projectShares.set(`${r.project_id}/${r.model}`, { share: Number(r.share), held: Number(r.held) });
  }

  const suspended = new Set<string>();
  if (queuedOrgs.length > 0) {
    const res = await exec.execute<{ org_id: string }>(
      sql`select org_id from org_suspensions where org_id = any(${uuids(queuedOrgs)})`,
    );
    for (const r of res.rows) suspended.add(r.org_id);
  }

  // Reclaim candidates: cohort members (borrowing), and any organization holding more than its own limit
  // (an operator lowered it below what runs).
  const overLimit = [...held]
    .filter(([k, h]) => {
      const [orgId, modelId] = k.split("/") as [string, string];
      return h > limitOf({ levels, orgs }, orgId, modelId);
    })
    .map(([k]) => k.split("/")[0] as string);
  const cohortOrgs = [
    ...new Set([...[...orgs].filter(([, o]) => o.cohortId).map(([id]) => id), ...overLimit]),
  ];
  const holders: GateHolder[] = [];
  if (cohortOrgs.length > 0) {
    const res = await exec.execute<{
      id: string;
      org_id: string;
      model: string;
      slices: number;
      priority: number;
      started_at: string | null;
      state: string;
      borrowed: boolean;
    }>(sql`
      select id, org_id, gpu_model_id as model, gpu_count * slices_per_gpu as slices, priority, started_at,
        state, borrowed
      from instances
      where region_code = ${regionCode} and state in ${HELD} and org_id = any(${uuids(cohortOrgs)})`);
    for (const r of res.rows) {
      holders.push({
        id: r.id,
        orgId: r.org_id,
        modelId: r.model,
        slices: Number(r.slices),
        priority: r.priority,
        startedAt: r.started_at ? new Date(r.started_at).getTime() : 0,
        running: r.state === "running",
        borrowed: r.borrowed,
      });
    }
  }
  return { orgs, levels, held, projectShares, suspended, holders };
}

/**
 * Regions where an organization holds more than its limit (nominal plus, in a cohort, its borrowing limit):
 * an operator lowered a level below what runs there, so the region's gate has work to reclaim even with
 * nothing queued. The scheduler ticks them next to the regions with queued work.
 */
export async function regionsOverQuota(exec: Executor): Promise<string[]> {
  const res = await exec.execute<{ region_code: string }>(sql`
    with held as (
      select org_id, gpu_model_id, region_code, sum(gpu_count * slices_per_gpu) as slices from instances
      where state in ${HELD} group by 1, 2, 3)
    select distinct h.region_code from held h
    left join quotas q on q.org_id = h.org_id and q.gpu_model_id = h.gpu_model_id
      and q.region_code = h.region_code
    left join cohort_members m on m.org_id = h.org_id
    left join lateral (
      select * from quota_defaults d
      where d.gpu_model_id in (h.gpu_model_id, '*') and d.region_code in (h.region_code, '*')
      order by (d.gpu_model_id = '*'), (d.region_code = '*') limit 1
    ) d on true
    where h.slices > (coalesce(q.max_gpus, d.nominal_gpus, ${DEFAULT_QUOTA_GPUS})
      + case when m.org_id is null then 0 else coalesce(q.borrowing_limit_gpus, d.borrowing_limit_gpus, 0) end)
      * ${SLICES_PER_GPU}
    order by 1`);
  return res.rows.map((r) => r.region_code);
}
