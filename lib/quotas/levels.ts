import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import type { GateLevel, GateOrg } from "./gate";
import { SLICES_PER_GPU } from "./units";

/**
 * GPUs an organization may hold per GPU model × region when neither its own quotas row nor an operator's
 * default says otherwise. Small on purpose: a new tenant can try every offering and asks for more.
 */
export const DEFAULT_QUOTA_GPUS = 8;
/** What the demo organizations get per offered GPU model × region. */
export const SEEDED_QUOTA_GPUS = 16;

export type LevelSource = "organization" | "default" | "builtin";
export type EffectiveLevel = GateLevel & { source: LevelSource };

const uuids = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;
const texts = (v: readonly string[]) =>
  sql`${`{${v.map((x) => `"${x.replace(/["\\]/g, "\\$&")}"`).join(",")}}`}::text[]`;

/**
 * The levels (in GPUs) of `o.id` × `m.model` in one region as lateral `l` (nominal, borrowing, lending,
 * source): the organization's row, else the most specific operator default ('*' matches any model or region),
 * else the built-in default. Shared by effectiveLevels and launch's one-statement admission read.
 */
export function levelsJoin(regionCode: string): SQL {
  return sql`
    left join quotas q on q.org_id = o.id and q.gpu_model_id = m.model and q.region_code = ${regionCode}
    left join lateral (
      select * from quota_defaults d
      where d.gpu_model_id in (m.model, '*') and d.region_code in (${regionCode}, '*')
      order by (d.gpu_model_id = '*'), (d.region_code = '*') limit 1
    ) d on true
    cross join lateral (select
      coalesce(q.max_gpus, d.nominal_gpus, ${DEFAULT_QUOTA_GPUS}) as nominal,
      coalesce(q.borrowing_limit_gpus, d.borrowing_limit_gpus, 0) as borrowing,
      case when q.org_id is not null then q.lending_limit_gpus else d.lending_limit_gpus end as lending,
      case when q.org_id is not null then 'organization' when d.nominal_gpus is not null then 'default'
           else 'builtin' end as source) l`;
}

/**
 * Levels (in slices) for each organization × GPU model in one region: the organization's row, else the most
 * specific operator default ('*' matches any model or region), else the built-in default. Key `org/model`.
 */
export async function effectiveLevels(
  exec: Executor,
  orgIds: readonly string[],
  modelIds: readonly string[],
  regionCode: string,
): Promise<Map<string, EffectiveLevel>> {
  const out = new Map<string, EffectiveLevel>();
  if (orgIds.length === 0 || modelIds.length === 0) return out;
  const res = await exec.execute<{
    org_id: string;
    model: string;
    nominal: number | null;
    borrowing: number | null;
    lending: number | null;
    source: LevelSource;
  }>(sql`
    select o.id as org_id, m.model, l.nominal, l.borrowing, l.lending, l.source
    from unnest(${uuids(orgIds)}) as o(id)
    cross join unnest(${texts(modelIds)}) as m(model)
    ${levelsJoin(regionCode)}`);
  for (const r of res.rows) {
    out.set(`${r.org_id}/${r.model}`, {
      nominal: Number(r.nominal) * SLICES_PER_GPU,
      borrowingLimit: Number(r.borrowing) * SLICES_PER_GPU,
      lendingLimit: r.lending === null ? null : Number(r.lending) * SLICES_PER_GPU,
      source: r.source,
    });
  }
  return out;
}

/** Cohort and weight of each organization (absent = in no cohort). */
export async function cohortOf(exec: Executor, orgIds: readonly string[]): Promise<Map<string, GateOrg>> {
  const out = new Map<string, GateOrg>(orgIds.map((id) => [id, { cohortId: null, weight: 1 }]));
  if (orgIds.length === 0) return out;
  const res = await exec.execute<{ org_id: string; cohort_id: string; weight: number }>(sql`
    select org_id, cohort_id, weight from cohort_members where org_id = any(${uuids(orgIds)})`);
  for (const r of res.rows) out.set(r.org_id, { cohortId: r.cohort_id, weight: Number(r.weight) });
  return out;
}

/** The other members of the cohorts of these organizations (lenders count even with nothing running). */
export async function withCohortPeers(exec: Executor, orgIds: readonly string[]): Promise<string[]> {
  if (orgIds.length === 0) return [];
  const res = await exec.execute<{ org_id: string }>(sql`
    select distinct m2.org_id from cohort_members m1
    join cohort_members m2 on m2.cohort_id = m1.cohort_id
    where m1.org_id = any(${uuids(orgIds)})`);
  return [...new Set([...orgIds, ...res.rows.map((r) => r.org_id)])];
}
