import "server-only";
import { sql } from "drizzle-orm";
import { requireOperator } from "@/lib/access";
import { type Ctx, NotFoundError, nowOf } from "@/lib/core";
import { readDb } from "@/lib/db/client";

export type TenantDetail = {
  org: { id: string; slug: string; name: string; createdAt: Date; allowedJurisdictions: string[] };
  suspension: { reason: string; suspendedAt: Date; noticeEndsAt: Date; by: string | null } | null;
  members: Array<{ email: string; name: string | null; role: string }>;
  projects: Array<{ slug: string; name: string; environment: string }>;
  /** GPUs held on nodes now (provisioning, running, stopping, preempting), MIG slices as their fraction. */
  runningGpus: number;
  /** Metered spend (the usage ledger) since the start of the current UTC month. */
  spendMtdUsd: number;
  quotaUse: Array<{ gpuModelId: string; regionCode: string; nominalGpus: number | null; heldGpus: number }>;
  instances: Array<{
    id: string;
    name: string;
    state: string;
    regionCode: string;
    gpus: number;
    /** Where it holds GPUs now (or last held them). */
    node: { id: string; name: string } | null;
    createdAt: Date;
  }>;
  audit: Array<{ id: number; action: string; actor: string | null; at: Date }>;
};

/** One organization as the operator sees it: who, what runs, what it spends, its quotas and its last changes. */
export async function getTenant(ctx: Ctx, slug: string): Promise<TenantDetail> {
  requireOperator(ctx);
  const exec = readDb(ctx);
  const now = nowOf(ctx);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const orgRes = await exec.execute<{
    id: string;
    slug: string;
    name: string;
    created_at: Date;
    allowed_jurisdictions: string[];
    reason: string | null;
    suspended_at: Date | null;
    notice_ends_at: Date | null;
    by_email: string | null;
  }>(sql`
    select o.id, o.slug, o.name, o.created_at, o.allowed_jurisdictions,
      s.reason, s.suspended_at, s.notice_ends_at, u.email as by_email
    from organizations o
    left join org_suspensions s on s.org_id = o.id
    left join users u on u.id = s.suspended_by
    where o.slug = ${slug}`);
  const o = orgRes.rows[0];
  if (!o) throw new NotFoundError("Organization");
  const id = o.id;
  const [members, projects, gpus, spend, quotaUse, insts, audit] = await Promise.all([
    exec.execute<{ email: string; name: string | null; role: string }>(sql`
      select u.email, u.name, m.role from memberships m join users u on u.id = m.user_id
      where m.org_id = ${id} order by m.role, u.email`),
    exec.execute<{ slug: string; name: string; environment: string }>(sql`
      select slug, name, environment from projects where org_id = ${id} order by name`),
    exec.execute<{ gpus: string }>(sql`
      select coalesce(sum(gpu_count * slices_per_gpu), 0) / 7.0 as gpus from instances
      where org_id = ${id} and state in ('provisioning', 'running', 'stopping', 'preempting')`),
    exec.execute<{ usd: string }>(sql`
      select coalesce(sum(amount), 0) as usd from usage_records
      where org_id = ${id} and period_start >= ${monthStart}`),
    exec.execute<{ gpu_model_id: string; region_code: string; nominal: number | null; held: string }>(sql`
      with held as (
        select gpu_model_id, region_code, sum(gpu_count * slices_per_gpu) / 7.0 as held from instances
        where org_id = ${id} and state in ('queued', 'provisioning', 'running', 'stopping', 'preempting')
        group by 1, 2)
      select coalesce(q.gpu_model_id, h.gpu_model_id) as gpu_model_id,
        coalesce(q.region_code, h.region_code) as region_code,
        q.max_gpus as nominal, coalesce(h.held, 0) as held
      from (select gpu_model_id, region_code, max_gpus from quotas where org_id = ${id}) q
      full join held h on h.gpu_model_id = q.gpu_model_id and h.region_code = q.region_code
      order by 2, 1`),
    exec.execute<{
      id: string;
      name: string;
      state: string;
      region_code: string;
      gpus: string;
      node_id: string | null;
      node_name: string | null;
      created_at: Date;
    }>(
      sql`select i.id, i.name, i.state, i.region_code, i.gpu_count * i.slices_per_gpu / 7.0 as gpus,
          i.node_id, n.name as node_name, i.created_at
        from instances i left join nodes n on n.id = i.node_id
        where i.org_id = ${id} order by i.created_at desc limit 50`,
    ),
    exec.execute<{ id: number; action: string; actor: string | null; at: Date }>(sql`
      select a.id, a.action, coalesce(u.email, a.actor_kind) as actor, a.at from audit_log a
      left join users u on u.id = a.actor_user_id
      where a.org_id = ${id} order by a.at desc, a.id desc limit 20`),
  ]);
  const date = (d: Date | string) => (d instanceof Date ? d : new Date(d));
  return {
    org: {
      id,
      slug: o.slug,
      name: o.name,
      createdAt: date(o.created_at),
      allowedJurisdictions: o.allowed_jurisdictions ?? [],
    },
    suspension:
      o.reason && o.suspended_at && o.notice_ends_at
        ? {
            reason: o.reason,
            suspendedAt: date(o.suspended_at),
            noticeEndsAt: date(o.notice_ends_at),
            by: o.by_email,
          }
        : null,
    members: members.rows,
    projects: projects.rows,
    runningGpus: Number(gpus.rows[0]?.gpus ?? 0),
    spendMtdUsd: Number(spend.rows[0]?.usd ?? 0),
    quotaUse: quotaUse.rows.map((r) => ({
      gpuModelId: r.gpu_model_id,
      regionCode: r.region_code,
      nominalGpus: r.nominal,
      heldGpus: Number(r.held),
    })),
    instances: insts.rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      regionCode: r.region_code,
      gpus: Number(r.gpus),
      node: r.node_id && r.node_name ? { id: r.node_id, name: r.node_name } : null,
      createdAt: date(r.created_at),
    })),
    audit: audit.rows.map((r) => ({ id: Number(r.id), action: r.action, actor: r.actor, at: date(r.at) })),
  };
}
