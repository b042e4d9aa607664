import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type Month, type ProjectSpendRow, spendPartsSql } from "@/lib/metering";
import type { Threshold } from "./alert";

/** A budget the pass has to act on: thresholds crossed and not yet alerted, or a stop_instances cap reached. */
export type BudgetHit = {
  budgetId: string;
  /** The budget's spend this month, as one row for forecastOf. */
  spend: ProjectSpendRow;
  /** Crossed this month at the budget's current amount, not alerted yet: ascending pct, then kind. */
  crossed: Threshold[];
  /** stop_instances with actual spend at or over the amount. */
  capped: boolean;
  /** When actual 100 % was alerted at this amount this month (null: not yet). */
  cappedSince: Date | null;
};

type HitJson = {
  id: string;
  org_id: string;
  project_id: string | null;
  service_id: string | null;
  mtd: number;
  trend: number;
  accrued: number;
  burn: number;
  crossed: Threshold[] | null;
  capped: boolean;
  since: string | null;
};

/**
 * Every budget's spend, actual and forecast compared with its thresholds in one statement, which returns
 * only the budgets with something to do: a threshold crossed this month that has no alert row yet (at the
 * budget's current amount), or a stop_instances budget used up. The thresholds are effectiveThresholds' (a
 * budget with an action at 100 % always watches actual 100 %), and actual/forecast are forecastOf's, rounded
 * to cents as it does. Reading 10,000 budgets and comparing them in memory cost as much as the spend itself.
 * `budgets` counts what was compared.
 */
export async function budgetHits(
  exec: Executor,
  q: { orgIds?: string[]; month: Month; now: Date },
): Promise<{ budgets: number; hits: BudgetHit[] }> {
  const { month, now } = q;
  const scope = q.orgIds ? { orgIds: q.orgIds } : { budgeted: true as const };
  const inScope = q.orgIds ? sql`where org_id = any(${`{${q.orgIds.join(",")}}`}::uuid[])` : sql``;
  const remainingHours = Math.max(0, (month.end.getTime() - now.getTime()) / 3_600_000);
  // Set-based all the way (a lateral per budget cost more than the spend): the spend parts are totalled per
  // organization and per organization × project once, each budget joins its total by key, and only the
  // thresholds a budget reaches are looked up in budget_alerts.
  const WHOLE = sql.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);
  const res = await exec.execute<{ budgets: number; hits: HitJson[] | null }>(sql`
    with b as materialized (
      select id, org_id, project_id, service_id, amount_usd, thresholds, action_at_100 from budgets ${inScope}
    ),
    parts as (${spendPartsSql(scope, { now, monthStart: month.start })}),
    tot as (
      select org_id, case when grouping(project_id) = 1 then ${WHOLE} else project_id end as project_key,
        ${WHOLE} as service_key,
        sum(mtd) as mtd, sum(trend_per_hour) as trend, sum(accrued) as accrued, sum(burn) as burn
      from parts group by grouping sets ((org_id), (org_id, project_id))
      union all
      -- A service's budget counts its replicas' parts only.
      select org_id, ${WHOLE}, service_id, sum(mtd), sum(trend_per_hour), sum(accrued), sum(burn)
      from parts where service_id is not null group by org_id, service_id
    ),
    v as (
      select b.*, coalesce(t.mtd, 0) as mtd, coalesce(t.trend, 0) as trend, coalesce(t.accrued, 0) as accrued,
        coalesce(t.burn, 0) as burn, round(coalesce(t.mtd, 0) + coalesce(t.accrued, 0), 2) as actual,
        round(coalesce(t.mtd, 0) + coalesce(t.accrued, 0)
          + greatest(coalesce(t.burn, 0), coalesce(t.trend, 0)) * ${remainingHours}::numeric, 2) as forecast
      from b left join tot t on t.org_id = b.org_id and t.service_key = coalesce(b.service_id, ${WHOLE})
        and t.project_key = case when b.service_id is null then coalesce(b.project_id, ${WHOLE}) else ${WHOLE} end
    ),
    reached as (
      select v.id, v.amount_usd, t.kind, t.pct
      from v cross join lateral jsonb_to_recordset(v.thresholds) as t(kind text, pct int)
      where case when t.kind = 'actual' then v.actual else v.forecast end >= v.amount_usd * t.pct / 100
      union
      select v.id, v.amount_usd, 'actual', 100 from v
      where v.action_at_100 <> 'notify' and v.actual >= v.amount_usd
    ),
    fresh as (
      select r.* from reached r
      where not exists (
        select 1 from budget_alerts a
        where a.budget_id = r.id and a.period = ${month.period} and a.kind::text = r.kind and a.pct = r.pct
          and a.budget_usd = r.amount_usd)
    ),
    todo as (
      select id from fresh
      union
      select id from v where v.action_at_100 = 'stop_instances' and v.actual >= v.amount_usd
    ),
    hits as (
      select v.id, v.org_id, v.project_id, v.service_id, v.mtd, v.trend, v.accrued, v.burn,
        (select jsonb_agg(jsonb_build_object('kind', f.kind, 'pct', f.pct) order by f.pct, f.kind)
          from fresh f where f.id = v.id) as crossed,
        v.action_at_100 = 'stop_instances' and v.actual >= v.amount_usd as capped,
        (select a.created_at from budget_alerts a
          where a.budget_id = v.id and a.period = ${month.period} and a.kind = 'actual' and a.pct = 100
            and a.budget_usd = v.amount_usd) as since
      from todo join v on v.id = todo.id
    )
    select (select count(*) from b)::int as budgets,
      (select jsonb_agg(to_jsonb(hits)) from hits) as hits`);
  const row = res.rows[0];
  return {
    budgets: Number(row?.budgets ?? 0),
    hits: (row?.hits ?? []).map((h) => ({
      budgetId: h.id,
      spend: {
        orgId: h.org_id,
        projectId: h.project_id,
        serviceId: h.service_id,
        ledgerMtd: Number(h.mtd),
        trendUsd: Number(h.trend),
        trendHours: 1,
        accrued: Number(h.accrued),
        burnPerHour: Number(h.burn),
      },
      crossed: h.crossed ?? [],
      capped: h.capped,
      cappedSince: h.since ? new Date(h.since) : null,
    })),
  };
}
