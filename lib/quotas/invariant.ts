import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { inFootprintSql } from "./admission";
import { DEFAULT_QUOTA_GPUS } from "./levels";
import { HELD_STATES } from "./state";

export type QuotaViolation = { kind: string; subject: string; detail: string };

const list = (v: readonly string[]) => sql.raw(`('${v.join("','")}')`);

/**
 * Quota levels as SQL, empty when none is overshot (tests run it after randomized concurrent scenarios,
 * next to lib/provisioning's capacity invariants): per organization × GPU model × region, what it queues and
 * holds stays within nominal + borrowing limit (borrowing only inside a cohort); per cohort, what its members
 * hold beyond nominal stays within what the others leave idle under their lending limits.
 */
export async function checkQuotaInvariants(
  exec: Executor,
  scope: { regionCode?: string } = {},
): Promise<QuotaViolation[]> {
  const region = scope.regionCode ?? null;
  const res = await exec.execute<QuotaViolation>(sql`
    with use as (
      select org_id, gpu_model_id, region_code,
        coalesce(sum(gpu_count * slices_per_gpu) filter (where state in ${list(HELD_STATES)}), 0) as held,
        coalesce(sum(gpu_count * slices_per_gpu) filter (where ${inFootprintSql()}), 0) as footprint
      from instances where ${region}::text is null or region_code = ${region}::text
      group by 1, 2, 3
    ), pairs as (
      select distinct u.gpu_model_id, u.region_code, m.cohort_id
      from use u join cohort_members m on m.org_id = u.org_id
    ), keys as (
      select org_id, gpu_model_id, region_code from use
      union
      select m.org_id, p.gpu_model_id, p.region_code from pairs p join cohort_members m on m.cohort_id = p.cohort_id
    ), lv as (
      select k.org_id, k.gpu_model_id, k.region_code, m.cohort_id,
        coalesce(u.held, 0) as held, coalesce(u.footprint, 0) as footprint,
        coalesce(q.max_gpus, d.nominal_gpus, ${DEFAULT_QUOTA_GPUS}) * 7 as nominal,
        case when m.cohort_id is null then 0
             else coalesce(q.borrowing_limit_gpus, d.borrowing_limit_gpus, 0) * 7 end as borrowing,
        (case when q.org_id is not null then q.lending_limit_gpus else d.lending_limit_gpus end) * 7 as lending
      from keys k
      left join use u using (org_id, gpu_model_id, region_code)
      left join cohort_members m on m.org_id = k.org_id
      left join quotas q on q.org_id = k.org_id and q.gpu_model_id = k.gpu_model_id and q.region_code = k.region_code
      left join lateral (
        select * from quota_defaults d
        where d.gpu_model_id in (k.gpu_model_id, '*') and d.region_code in (k.region_code, '*')
        order by (d.gpu_model_id = '*'), (d.region_code = '*') limit 1
      ) d on true
    )
    select 'org_footprint_over_limit' as kind, org_id || '/' || gpu_model_id || '/' || region_code as subject,
           'queued and held ' || footprint || ' slices > nominal ' || nominal || ' + borrowing ' || borrowing as detail
      from lv where footprint > nominal + borrowing
    union all
    select 'org_held_over_limit', org_id || '/' || gpu_model_id || '/' || region_code,
           'held ' || held || ' slices > nominal ' || nominal || ' + borrowing ' || borrowing
      from lv where held > nominal + borrowing
    union all
    select 'cohort_over_lent', cohort_id || '/' || gpu_model_id || '/' || region_code,
           'borrowed ' || sum(greatest(0, held - nominal)) || ' slices > lendable ' ||
           sum(least(greatest(0, nominal - held), coalesce(lending, nominal)))
      from lv where cohort_id is not null
      group by cohort_id, gpu_model_id, region_code
      having sum(greatest(0, held - nominal)) > sum(least(greatest(0, nominal - held), coalesce(lending, nominal)))
    union all
    select 'borrowed_outside_cohort', i.id::text, 'borrowed instance of an organization in no cohort'
      from instances i left join cohort_members m on m.org_id = i.org_id
      where i.borrowed and m.org_id is null and i.state in ${list(HELD_STATES)}
        and (${region}::text is null or i.region_code = ${region}::text)
  `);
  return res.rows;
}
