import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { costScopeOf } from "./access";
import {
  type CostGroup,
  type DailyCostInput,
  dailyCostSchema,
  type TopInstancesInput,
  topInstancesSchema,
} from "./schemas";

export type DailyCostRow = { day: string; key: string; amountUsd: number };
export type CostGroupTotal = { key: string; label: string; amountUsd: number };
export type DailyCost = {
  groupBy: CostGroup;
  rows: DailyCostRow[];
  groups: CostGroupTotal[];
  totalUsd: number;
};

/** The key each group-by uses; storage rows have no pricing model and group as "storage". */
const GROUP_KEY: Record<CostGroup, SQL> = {
  project: sql`coalesce(u.project_id::text, 'organization')`,
  gpu_model: sql`coalesce(u.gpu_model_id, 'other')`,
  region: sql`u.region_code`,
  pricing_model: sql`coalesce(u.pricing_model::text, u.kind::text)`,
  service: sql`coalesce(sv.id::text, 'none')`,
};
const GROUP_LABEL: Record<CostGroup, SQL> = {
  project: sql`coalesce(p.name, 'Organization (reservations)')`,
  gpu_model: sql`coalesce(g.name, u.gpu_model_id, 'Other')`,
  region: sql`coalesce(r.name, u.region_code)`,
  pricing_model: sql`coalesce(u.pricing_model::text, u.kind::text)`,
  service: sql`coalesce(sv.name, 'Not a service')`,
};

/**
 * Cost per UTC day and group (project, GPU model, region, pricing model, or the inference service whose
 * replica the instance was — an instance is at most one service's replica) for a range, aggregated in SQL
 * with date_trunc over the ledger (metered hours only: the current hour appears after the next pass).
 */
export async function dailyCost(ctx: Ctx, orgSlug: string, raw: DailyCostInput): Promise<DailyCost> {
  const { org, projectId, input } = await costScopeOf(ctx, orgSlug, dailyCostSchema, raw);
  const key = GROUP_KEY[input.groupBy];
  const res = await readDb(ctx).execute<{
    day: string;
    key: string;
    label: string;
    amount: string;
  }>(sql`
    select to_char(date_trunc('day', u.period_start at time zone 'UTC'), 'YYYY-MM-DD') as day,
      ${key} as key, min(${GROUP_LABEL[input.groupBy]}) as label, sum(u.amount) as amount
    from usage_records u
    left join projects p on p.id = u.project_id
    left join gpu_models g on g.id = u.gpu_model_id
    left join regions r on r.code = u.region_code
    left join service_replicas sr on sr.instance_id = u.instance_id
    left join services sv on sv.id = sr.service_id
    where u.org_id = ${org.id} and u.period_start >= ${input.from} and u.period_start < ${input.to}
      ${projectId ? sql`and u.project_id = ${projectId}` : sql``}
    group by 1, 2
    order by 1, 2`);
  const groups = new Map<string, CostGroupTotal>();
  const rows: DailyCostRow[] = [];
  let total = 0;
  for (const r of res.rows) {
    const amount = Number(r.amount);
    rows.push({ day: r.day, key: r.key, amountUsd: amount });
    const g = groups.get(r.key) ?? { key: r.key, label: r.label, amountUsd: 0 };
    g.amountUsd += amount;
    groups.set(r.key, g);
    total += amount;
  }
  return {
    groupBy: input.groupBy,
    rows,
    groups: [...groups.values()].sort((a, b) => b.amountUsd - a.amountUsd),
    totalUsd: total,
  };
}

export type TopInstance = {
  instanceId: string;
  name: string;
  projectName: string;
  instanceTypeId: string;
  gpuModelId: string;
  regionCode: string;
  pricingModel: string;
  state: string;
  amountUsd: number;
  computeHours: number;
};

/** The instances that cost the most in a range (compute and storage), most expensive first. */
export async function topInstances(
  ctx: Ctx,
  orgSlug: string,
  raw: TopInstancesInput,
): Promise<TopInstance[]> {
  const { org, projectId, input } = await costScopeOf(ctx, orgSlug, topInstancesSchema, raw);
  const res = await readDb(ctx).execute<{
    instance_id: string;
    name: string;
    project_name: string;
    instance_type_id: string;
    gpu_model_id: string;
    region_code: string;
    pricing_model: string;
    state: string;
    amount: string;
    hours: string;
  }>(sql`
    select u.instance_id, i.name, p.name as project_name, i.instance_type_id, i.gpu_model_id, i.region_code,
      i.pricing_model, i.state, u.amount, u.hours
    from (
      select instance_id, sum(amount) as amount,
        coalesce(sum(seconds) filter (where kind = 'compute'), 0) / 3600.0 as hours
      from usage_records
      where org_id = ${org.id} and instance_id is not null
        and period_start >= ${input.from} and period_start < ${input.to}
        ${projectId ? sql`and project_id = ${projectId}` : sql``}
      group by instance_id
      order by sum(amount) desc, instance_id
      limit ${input.limit}
    ) u
    join instances i on i.id = u.instance_id and i.org_id = ${org.id}
    join projects p on p.id = i.project_id
    order by u.amount desc, u.instance_id`);
  return res.rows.map((r) => ({
    instanceId: r.instance_id,
    name: r.name,
    projectName: r.project_name,
    instanceTypeId: r.instance_type_id,
    gpuModelId: r.gpu_model_id,
    regionCode: r.region_code,
    pricingModel: r.pricing_model,
    state: r.state,
    amountUsd: Number(r.amount),
    computeHours: Number(r.hours),
  }));
}
