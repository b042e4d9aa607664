import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { budgetSpendSql, type Month, type ProjectSpendRow } from "@/lib/metering";
import type { Threshold } from "./alert";
import { BUDGET_PCT_MIN } from "./field-messages";

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
  // Set-based all the way (a lateral per budget cost more than the spend): the ledger is grouped once per
  // organization × project (the bare aggregate's scan and groups), and each budget joins the already-grouped
  // totals of its scope by key: its project's row, its organization's sum of them, or its service's; the
  // unmetered tail and burn (a few rows per running instance) are totalled per scope apart. Only the thresholds a
  // budget reaches are looked up in budget_alerts.
  const WHOLE = sql.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);
  const spend = budgetSpendSql(scope, { now, monthStart: month.start });
  const res = await exec.execute<{ budgets: number; hits: HitJson[] | null }>(sql`
    with b as materialized (
      select id, org_id, project_id, service_id, amount_usd, thresholds, action_at_100 from budgets ${inScope}
    ),
    led as materialized (${spend.ledger}),
    led_org as (
      select org_id, sum(mtd) as mtd, sum(trend_per_hour) as trend from led where service_id is null group by org_id
    ),
    led_svc as (
      select org_id, service_id, sum(mtd) as mtd, sum(trend_per_hour) as trend
      from led where service_id is not null group by org_id, service_id
    ),
    live as (${spend.live}),
    -- Keys as the budgets' scopes: (org, whole, whole), (org, project, whole), (org, whole, service).
    live_tot as (
      select org_id, case when grouping(project_id) = 0 then project_id else ${WHOLE} end as project_key,
        case when grouping(service_id) = 0 then service_id else ${WHOLE} end as service_key,
        sum(accrued) as accrued, sum(burn) as burn
      from live group by grouping sets ((org_id), (org_id, project_id), (org_id, service_id))
      having (grouping(project_id) = 1 or project_id is not null)
        and (grouping(service_id) = 1 or service_id is not null)
    ),
    spent as (
      select b.*,
        coalesce(case when b.service_id is not null then ls.mtd when b.project_id is null then lo.mtd
          else lp.mtd end, 0) as mtd,
        coalesce(case when b.service_id is not null then ls.trend when b.project_id is null then lo.trend
          else lp.trend_per_hour end, 0) as trend,
        coalesce(lt.accrued, 0) as accrued, coalesce(lt.burn, 0) as burn
      from b
      left join led lp on b.service_id is null and lp.service_id is null and lp.org_id = b.org_id
        and lp.project_id = b.project_id
      left join led_org lo on b.service_id is null and b.project_id is null and lo.org_id = b.org_id
      left join led_svc ls on ls.org_id = b.org_id and ls.service_id = b.service_id
      left join live_tot lt on lt.org_id = b.org_id and lt.service_key = coalesce(b.service_id, ${WHOLE})
        and lt.project_key = case when b.service_id is null then coalesce(b.project_id, ${WHOLE}) else ${WHOLE} end
    ),
    v as (
      select spent.*, round(mtd + accrued, 2) as actual,
        round(mtd + accrued + greatest(burn, trend) * ${remainingHours}::numeric, 2) as forecast
      from spent
    ),
    reached as (
      select v.id, v.amount_usd, t.kind, t.pct
      from v cross join lateral jsonb_to_recordset(v.thresholds) as t(kind text, pct int)
      -- ×100 on both sides rather than a numeric division per threshold (exact either way). The forecast is
      -- never below the actual, so a budget whose forecast is under the lowest percentage a threshold may
      -- have reaches none: its thresholds are not expanded (most budgets, most of the month).
      where 100 * v.forecast >= v.amount_usd * ${BUDGET_PCT_MIN}
        and 100 * case when t.kind = 'actual' then v.actual else v.forecast end >= v.amount_usd * t.pct
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
