import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { STORAGE_USD_PER_GIB_HOUR } from "./rates";

const COMPUTE = sql.raw(`('running', 'stopping', 'preempting')`);
const STORAGE = sql.raw(`('stopped', 'preempted')`);
const TERMINAL = sql.raw(`('terminated', 'rejected', 'cancelled', 'failed')`);

/** Which organizations a spend query covers: one, some, or every organization that has a budget. */
export type SpendScope = { orgId: string } | { orgIds: string[] } | { budgeted: true };

function orgFilter(scope: SpendScope, column: SQL): SQL {
  if ("orgId" in scope) return sql`${column} = ${scope.orgId}::uuid`;
  if ("orgIds" in scope) return sql`${column} = any(${`{${scope.orgIds.join(",")}}`}::uuid[])`;
  return sql`${column} in (select distinct org_id from budgets)`;
}

export type ProjectSpendRow = {
  orgId: string;
  /** Null: organization-level (reservation commitments). */
  projectId: string | null;
  /** The inference service whose replicas these are; null for everything else. */
  serviceId: string | null;
  /** Ledger rows of the month. */
  ledgerMtd: number;
  /** Ledger spend over the trend window and its length in hours. */
  trendUsd: number;
  trendHours: number;
  /** Usage after the last metered hour, priced at the instance's own rate (an estimate until metered). */
  accrued: number;
  /** What the organization spends per hour right now. */
  burnPerHour: number;
};

type SpendWindow = { now: Date; monthStart: Date; trendDays?: number };

/** The trend window's start, and where the ledger is read from (the earlier of it and the month start). */
function windowOf(opts: SpendWindow): { trendFrom: Date; since: Date } {
  const trendFrom = new Date(opts.now.getTime() - (opts.trendDays ?? 7) * 86_400_000);
  return { trendFrom, since: trendFrom < opts.monthStart ? trendFrom : opts.monthStart };
}

/**
 * Spend per organization × project × service (a replica's instance counts under its service) in three aggregate statements (ledger, unmetered tail, current burn), so
 * the budget evaluation of every organization costs the same three queries as one organization's.
 */
export async function projectSpend(
  exec: Executor,
  scope: SpendScope,
  opts: SpendWindow,
): Promise<ProjectSpendRow[]> {
  const { now, monthStart } = opts;
  const { trendFrom, since } = windowOf(opts);
  const [ledger, accrual, burn] = await Promise.all([
    exec.execute<{
      org_id: string;
      project_id: string | null;
      service_id: string | null;
      mtd: string;
      trend: string;
      hours: string;
    }>(ledgerSql(scope, since, trendFrom, monthStart, now)),
    exec.execute<{ org_id: string; project_id: string; service_id: string | null; accrued: string }>(
      accrualSql(scope, now, monthStart),
    ),
    exec.execute<{ org_id: string; project_id: string | null; service_id: string | null; burn: string }>(
      burnSql(scope, now),
    ),
  ]);
  const rows = new Map<string, ProjectSpendRow>();
  const slot = (orgId: string, projectId: string | null, serviceId: string | null) => {
    const key = `${orgId}|${projectId ?? ""}|${serviceId ?? ""}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        orgId,
        projectId,
        serviceId,
        ledgerMtd: 0,
        trendUsd: 0,
        trendHours: 1,
        accrued: 0,
        burnPerHour: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const r of ledger.rows) {
    const s = slot(r.org_id, r.project_id, r.service_id);
    s.ledgerMtd = Number(r.mtd);
    s.trendUsd = Number(r.trend);
    s.trendHours = Number(r.hours);
  }
  for (const r of accrual.rows) slot(r.org_id, r.project_id, r.service_id).accrued = Number(r.accrued);
  for (const r of burn.rows) slot(r.org_id, r.project_id, r.service_id).burnPerHour = Number(r.burn);
  return [...rows.values()];
}

/**
 * The same three readings as projectSpend, shaped for the budget pass, which compares every budget with its
 * thresholds in one statement. `ledger`: columns org_id, project_id, service_id, mtd, trend_per_hour; the rows
 * with service_id null are each organization × project's whole ledger (replicas' rows included), and the rows
 * with a service_id repeat that service's replicas' share, for its budget. `live`: the unmetered tail and the
 * current burn (org_id, project_id, service_id, accrued, burn), up to two rows per organization × project ×
 * service, to be summed.
 */
export function budgetSpendSql(scope: SpendScope, opts: SpendWindow): { ledger: SQL; live: SQL } {
  const { now, monthStart } = opts;
  const { trendFrom, since } = windowOf(opts);
  return {
    ledger: budgetLedgerSql(scope, since, trendFrom, monthStart, now),
    live: sql`
      select org_id, project_id, service_id, accrued, 0::numeric as burn
      from (${accrualSql(scope, now, monthStart)}) a
      union all
      select org_id, project_id, service_id, 0, burn from (${burnSql(scope, now)}) b`,
  };
}

/** The month-to-date and trend-window sums of the ledger rows in the window, and the first row's start. */
function windowSums(monthStart: Date, trendFrom: Date): SQL {
  return sql`coalesce(sum(u.amount) filter (where u.period_start >= ${monthStart}), 0) as mtd,
    coalesce(sum(u.amount) filter (where u.period_start >= ${trendFrom}), 0) as trend`;
}

/**
 * ledgerSql's reading without the service attribution on every row: the organization × project groups take
 * every row (the same scan and groups as a bare sum per organization × project), and a service's replicas'
 * rows are read a second time from service_replicas through the ledger's instance index. Joining
 * service_replicas to each of the month's rows cost a fifth of the scan (budgets-evaluate bench).
 */
function budgetLedgerSql(scope: SpendScope, since: Date, trendFrom: Date, monthStart: Date, now: Date): SQL {
  const perRow = "budgeted" in scope ? sql`true` : orgFilter(scope, sql`u.org_id`);
  const perGroup = "budgeted" in scope ? orgFilter(scope, sql`g.org_id`) : sql`true`;
  const inWindow = sql`${perRow} and u.period_start >= ${since} and u.period_start < ${now}`;
  return sql`
    with g as (
      select u.org_id, u.project_id, ${windowSums(monthStart, trendFrom)}, min(u.period_start) as first_start
      from usage_records u where ${inWindow}
      group by u.org_id, u.project_id
    ),
    gh as (
      select g.org_id, g.project_id, g.mtd, g.trend, ${hoursSql(now, trendFrom)} as hours
      from g left join metering_cursors c on c.org_id = g.org_id
      where ${perGroup}
    ),
    s as (
      select u.org_id, u.project_id, sr.service_id, ${windowSums(monthStart, trendFrom)}
      from service_replicas sr join usage_records u on u.instance_id = sr.instance_id
      where ${inWindow}
      group by u.org_id, u.project_id, sr.service_id
    )
    select org_id, project_id, null::uuid as service_id, mtd, trend / hours as trend_per_hour from gh
    union all
    select s.org_id, s.project_id, s.service_id, s.mtd, s.trend / h.hours
    from s join (select distinct org_id, hours from gh) h on h.org_id = s.org_id`;
}

/**
 * The trend's denominator, one per organization: its metered hours in the trend window since its first
 * usage (over the groups g of the organization, each with its first_start; c its metering cursor).
 */
function hoursSql(now: Date, trendFrom: Date): SQL {
  return sql`greatest(1, extract(epoch from coalesce(c.metered_until, ${now}::timestamptz)
        - greatest(${trendFrom}::timestamptz, min(g.first_start) over (partition by g.org_id))) / 3600)`;
}

/**
 * The ledger of the window per organization × project: month to date, the trend window and the trend's
 * denominator, one per organization (its metered hours in the window since its first usage), so the projects'
 * rates add up to the organization's. Every budgeted organization is filtered on the groups, not on each row.
 * The cursor is joined to the groups, not to every ledger row. (Grouping the rows by window flags as well, to
 * sum once per row, made the bench ×10 slower: not a way to go.)
 */
function ledgerSql(scope: SpendScope, since: Date, trendFrom: Date, monthStart: Date, now: Date): SQL {
  const perRow = "budgeted" in scope ? sql`true` : orgFilter(scope, sql`u.org_id`);
  const perGroup = "budgeted" in scope ? orgFilter(scope, sql`g.org_id`) : sql`true`;
  return sql`
    with g as (
      select u.org_id, u.project_id, sr.service_id, ${windowSums(monthStart, trendFrom)},
        min(u.period_start) as first_start
      from usage_records u left join service_replicas sr on sr.instance_id = u.instance_id
      where ${perRow} and u.period_start >= ${since} and u.period_start < ${now}
      group by u.org_id, u.project_id, sr.service_id
    )
    select g.org_id, g.project_id, g.service_id, g.mtd, g.trend,
      ${hoursSql(now, trendFrom)} as hours
    from g left join metering_cursors c on c.org_id = g.org_id
    where ${perGroup}`;
}

/**
 * The usage since the organization's ledger ends (its metering cursor, or the month start): each instance's
 * states since then, each priced at the price in force when the state began.
 */
function accrualSql(scope: SpendScope, now: Date, monthStart: Date): SQL {
  return sql`
    with scope as (
      select o.id as org_id, greatest(coalesce(c.metered_until, ${monthStart}), ${monthStart}) as since
      from organizations o left join metering_cursors c on c.org_id = o.id
      where ${orgFilter(scope, sql`o.id`)}
    ),
    live as (
      select i.id, i.org_id, i.project_id, i.instance_type_id, i.region_code, i.pricing_model, i.disk_gib, s.since
      from instances i join scope s on s.org_id = i.org_id
      where (i.state not in ${TERMINAL} or i.updated_at >= s.since) and s.since < ${now}
    ),
    changes as (
      select l.id, b.to_state, l.since as at, 0::bigint as seq from live l
      cross join lateral (
        select to_state from instance_events e where e.instance_id = l.id and e.at < l.since
        order by e.at desc, e.id desc limit 1
      ) b
      union all
      select e.instance_id, e.to_state, e.at, e.id from instance_events e join live l on l.id = e.instance_id
      where e.at >= l.since and e.at < ${now}
    ),
    spans as (
      select c.id, c.to_state, c.at as s,
        coalesce(lead(c.at) over (partition by c.id order by c.at, c.seq), ${now}::timestamptz) as e
      from changes c
    )
    select l.org_id, l.project_id, sr.service_id, sum(extract(epoch from sp.e - sp.s) / 3600 * case
        when sp.to_state in ${COMPUTE} then coalesce(p.usd_per_hour, 0)
        when sp.to_state in ${STORAGE} then l.disk_gib * ${STORAGE_USD_PER_GIB_HOUR}::numeric
        else 0 end) as accrued
    from spans sp join live l on l.id = sp.id
    left join lateral (
      select usd_per_hour from prices p
      where p.instance_type_id = l.instance_type_id and p.region_code = l.region_code
        and p.pricing_model = l.pricing_model and p.effective_from <= sp.s
        and (p.effective_to is null or p.effective_to > sp.s)
      order by p.effective_from desc limit 1
    ) p on sp.to_state in ${COMPUTE}
    left join service_replicas sr on sr.instance_id = l.id
    group by l.org_id, l.project_id, sr.service_id`;
}

/**
 * The hourly rate right now: running instances at their current price, stopped disks at the storage rate,
 * and each active reservation's full commitment (organization-level). Instances launched as reserved add
 * nothing on top, their GPUs being the commitment already counted.
 */
function burnSql(scope: SpendScope, now: Date): SQL {
  return sql`
    select i.org_id, i.project_id, sr.service_id, sum(case
        when i.state in ${STORAGE} then i.disk_gib * ${STORAGE_USD_PER_GIB_HOUR}::numeric
        when i.pricing_model in ('reserved_1m', 'reserved_1y') then 0
        else coalesce(p.usd_per_hour, 0) end) as burn
    from instances i
    left join lateral (
      select usd_per_hour from prices p
      where p.instance_type_id = i.instance_type_id and p.region_code = i.region_code
        and p.pricing_model = i.pricing_model and p.effective_from <= ${now}
        and (p.effective_to is null or p.effective_to > ${now})
      order by p.effective_from desc limit 1
    ) p on true
    left join service_replicas sr on sr.instance_id = i.id
    where ${orgFilter(scope, sql`i.org_id`)} and (i.state in ${COMPUTE} or i.state in ${STORAGE})
    group by i.org_id, i.project_id, sr.service_id
    union all
    select r.org_id, null, null, sum(r.gpu_count * coalesce(p.usd_per_hour, 0))
    from reservations r
    left join lateral (
      select p.usd_per_hour from instance_types t join prices p on p.instance_type_id = t.id
      where t.gpu_model_id = r.gpu_model_id and t.gpu_count = 1 and t.mig_profile is null
        and p.region_code = r.region_code and p.pricing_model = r.term and p.effective_from <= r.starts_at
        and (p.effective_to is null or p.effective_to > r.starts_at)
      order by p.effective_from desc limit 1
    ) p on true
    where ${orgFilter(scope, sql`r.org_id`)} and r.starts_at <= ${now} and r.ends_at > ${now}
    group by r.org_id`;
}
