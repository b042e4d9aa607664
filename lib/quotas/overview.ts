import "server-only";
import { sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import type { Ctx } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { quotaStanding } from "./admission";
import { gpusOfSlices } from "./units";

export type QuotaTableRow = {
  orgId: string;
  orgName: string;
  orgSlug: string;
  gpuModelId: string;
  regionCode: string;
  source: "organization" | "default" | "builtin";
  nominalGpus: number;
  borrowingLimitGpus: number;
  /** Null = all unused nominal may be lent. */
  lendingLimitGpus: number | null;
  inUseGpus: number;
  /** Held beyond nominal, on capacity borrowed from the cohort. */
  borrowedGpus: number;
  /** Unused nominal (within the lending limit) that cohort peers use now. */
  lentGpus: number;
  cohortName: string | null;
};

/** Narrows the operators' quota table: one organization (its id or slug), GPU model or region. */
export type QuotaTableFilter = { org?: string; gpuModelId?: string; regionCode?: string };

/** One row's key in the operators' quota table, with what the row shows of its organization and cohort. */
export type QuotaTableKey = {
  orgId: string;
  orgName: string;
  orgSlug: string;
  gpuModelId: string;
  regionCode: string;
  cohortName: string | null;
  cohortId: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Operator: the keys of the quota table (every organization × GPU model × region with a quota of its own or
 * GPUs held), in the table's order — one statement, so a page of the API computes use for its rows only.
 */
export async function listQuotaTableKeys(ctx: Ctx, filter: QuotaTableFilter = {}): Promise<QuotaTableKey[]> {
  requireOperator(ctx);
  const where = [sql`true`];
  if (filter.org) where.push(UUID.test(filter.org) ? sql`o.id = ${filter.org}` : sql`o.slug = ${filter.org}`);
  if (filter.gpuModelId) where.push(sql`k.model = ${filter.gpuModelId}`);
  if (filter.regionCode) where.push(sql`k.region = ${filter.regionCode}`);
  const keys = await getDb().execute<{
    org_id: string;
    name: string;
    slug: string;
    model: string;
    region: string;
    cohort: string | null;
    cohort_id: string | null;
  }>(sql`
    select k.org_id, o.name, o.slug, k.model, k.region, c.name as cohort, c.id as cohort_id from (
      select org_id, gpu_model_id as model, region_code as region from quotas
      union
      select org_id, gpu_model_id, region_code from instances
        where state in ('provisioning', 'running', 'stopping')
    ) k
    join organizations o on o.id = k.org_id
    left join cohort_members m on m.org_id = k.org_id
    left join cohorts c on c.id = m.cohort_id
    where ${sql.join(where, sql` and `)}
    order by o.name, k.model, k.region, k.org_id`);
  return keys.rows.map((k) => ({
    orgId: k.org_id,
    orgName: k.name,
    orgSlug: k.slug,
    gpuModelId: k.model,
    regionCode: k.region,
    cohortName: k.cohort,
    cohortId: k.cohort_id,
  }));
}

/**
 * Operator: every organization × GPU model × region with a quota of its own or GPUs held, with its levels and
 * what it holds, borrows and lends now.
 */
export async function listQuotaTable(ctx: Ctx, filter: QuotaTableFilter = {}): Promise<QuotaTableRow[]> {
  return quotaTableRows(ctx, await listQuotaTableKeys(ctx, filter));
}

/** The levels and use of the given keys of the quota table (a page of them), in their order. */
export async function quotaTableRows(ctx: Ctx, keys: readonly QuotaTableKey[]): Promise<QuotaTableRow[]> {
  requireOperator(ctx);
  const db = getDb();
  const rows: QuotaTableRow[] = [];
  for (const k of keys) {
    const s = await quotaStanding(db, { orgId: k.orgId, gpuModelId: k.gpuModelId, regionCode: k.regionCode });
    const borrowed = Math.max(0, s.held - s.nominal);
    let lent = 0;
    if (k.cohortId) {
      // The cohort's borrowed use, spread over the lenders in proportion to what each leaves unused.
      const peers = await db.execute<{ org_id: string }>(
        sql`select org_id from cohort_members where cohort_id = ${k.cohortId}`,
      );
      let pool = 0;
      let poolBorrowed = 0;
      let mine = 0;
      for (const p of peers.rows) {
        const ps =
          p.org_id === k.orgId
            ? s
            : await quotaStanding(db, {
                orgId: p.org_id,
                gpuModelId: k.gpuModelId,
                regionCode: k.regionCode,
              });
        poolBorrowed += Math.max(0, ps.held - ps.nominal);
        const unused = Math.max(0, ps.nominal - ps.held);
        const lendable = ps.lendingLimit === null ? unused : Math.min(unused, ps.lendingLimit);
        pool += lendable;
        if (p.org_id === k.orgId) mine = lendable;
      }
      lent = pool > 0 ? Math.min(mine, Math.round((mine * Math.min(poolBorrowed, pool)) / pool)) : 0;
    }
    rows.push({
      orgId: k.orgId,
      orgName: k.orgName,
      orgSlug: k.orgSlug,
      gpuModelId: k.gpuModelId,
      regionCode: k.regionCode,
      source: s.source,
      nominalGpus: gpusOfSlices(s.nominal),
      borrowingLimitGpus: gpusOfSlices(s.borrowingLimit),
      lendingLimitGpus: s.lendingLimit === null ? null : gpusOfSlices(s.lendingLimit),
      inUseGpus: gpusOfSlices(s.held),
      borrowedGpus: gpusOfSlices(borrowed),
      lentGpus: gpusOfSlices(lent),
      cohortName: k.cohortName,
    });
  }
  return rows;
}

export type QuotaDefaultRow = {
  gpuModelId: string;
  regionCode: string;
  nominalGpus: number;
  borrowingLimitGpus: number;
  lendingLimitGpus: number | null;
};

/** Every default, or (API filters) one GPU model's or one region's: `*` rows are matched literally. */
export async function listQuotaDefaults(
  ctx: Ctx,
  filters: { gpuModelId?: string; regionCode?: string } = {},
): Promise<QuotaDefaultRow[]> {
  requireOperator(ctx);
  const model = filters.gpuModelId ?? null;
  const region = filters.regionCode ?? null;
  const res = await getDb().execute<{
    gpu_model_id: string;
    region_code: string;
    nominal_gpus: number;
    borrowing_limit_gpus: number;
    lending_limit_gpus: number | null;
  }>(sql`select * from quota_defaults
    where (${model}::text is null or gpu_model_id = ${model})
      and (${region}::text is null or region_code = ${region})
    order by gpu_model_id, region_code`);
  return res.rows.map((r) => ({
    gpuModelId: r.gpu_model_id,
    regionCode: r.region_code,
    nominalGpus: Number(r.nominal_gpus),
    borrowingLimitGpus: Number(r.borrowing_limit_gpus),
    lendingLimitGpus: r.lending_limit_gpus === null ? null : Number(r.lending_limit_gpus),
  }));
}

export type CohortRow = {
  id: string;
  name: string;
  description: string;
  members: Array<{ orgId: string; orgName: string; weight: number }>;
};

/** Every cohort with its members, or (`orgId`) only the one that organization is in. */
export async function listCohorts(ctx: Ctx, filters: { orgId?: string } = {}): Promise<CohortRow[]> {
  requireOperator(ctx);
  const org = filters.orgId ?? null;
  const res = await getDb().execute<{
    id: string;
    name: string;
    description: string;
    org_id: string | null;
    org_name: string | null;
    weight: number | null;
  }>(sql`
    select c.id, c.name, c.description, m.org_id, o.name as org_name, m.weight from cohorts c
    left join cohort_members m on m.cohort_id = c.id
    left join organizations o on o.id = m.org_id
    where ${org}::text is null
      or exists (select 1 from cohort_members x where x.cohort_id = c.id and x.org_id::text = ${org})
    order by c.name, o.name`);
  const out = new Map<string, CohortRow>();
  for (const r of res.rows) {
    const c = out.get(r.id) ?? { id: r.id, name: r.name, description: r.description, members: [] };
    if (r.org_id && r.org_name)
      c.members.push({ orgId: r.org_id, orgName: r.org_name, weight: Number(r.weight) });
    out.set(r.id, c);
  }
  return [...out.values()];
}

export type QuotaHistoryRow = {
  id: number;
  at: Date;
  action: string;
  actorEmail: string | null;
  orgId: string | null;
  orgName: string | null;
  targetId: string | null;
  data: Record<string, unknown> | null;
};

/** Operator: every quota, default and cohort change (newest first) with who made it. */
export async function listQuotaHistory(ctx: Ctx, limit = 50): Promise<QuotaHistoryRow[]> {
  requireOperator(ctx);
  const res = await getDb().execute<{
    id: number;
    at: string;
    action: string;
    email: string | null;
    org_id: string | null;
    org_name: string | null;
    target_id: string | null;
    data: Record<string, unknown> | null;
  }>(sql`
    select a.id, a.at, a.action, u.email, a.org_id, o.name as org_name, a.target_id, a.data from audit_log a
    left join users u on u.id = a.actor_user_id
    left join organizations o on o.id = a.org_id
    where a.action like 'quota.%' or a.action like 'cohort.%' or a.action like 'quota_request.%'
    order by a.at desc, a.id desc limit ${limit}`);
  return res.rows.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at),
    action: r.action,
    actorEmail: r.email,
    orgId: r.org_id,
    orgName: r.org_name,
    targetId: r.target_id,
    data: r.data,
  }));
}

export type QuotaChoices = {
  orgs: Array<{ id: string; name: string }>;
  models: Array<{ id: string; name: string }>;
  regions: Array<{ code: string; name: string }>;
};

/** Operator: what the quota forms offer to choose from. */
export async function quotaChoices(ctx: Ctx): Promise<QuotaChoices> {
  requireOperator(ctx);
  const db = getDb();
  const [orgs, models, regions] = await Promise.all([
    db.execute<{ id: string; name: string }>(sql`select id, name from organizations order by name`),
    db.execute<{ id: string; name: string }>(sql`select id, name from gpu_models order by name`),
    db.execute<{ code: string; name: string }>(sql`select code, name from regions order by code`),
  ]);
  return { orgs: orgs.rows, models: models.rows, regions: regions.rows };
}
