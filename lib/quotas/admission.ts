import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { ForbiddenError, QuotaExceededError } from "@/lib/core";
import type { Executor, Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { poolOf } from "./gate";
import { cohortOf, effectiveLevels, levelsJoin } from "./levels";
import { HELD_STATES } from "./state";
import { gpusOfSlices, SLICES_PER_GPU } from "./units";

/**
 * States that count toward an organization's admitted footprint: all that hold GPUs or wait for them. A
 * stopped or preempted instance holds none (starting it again is admitted anew); auto-recover goes preempting
 * → preempted → queued in one transaction and so keeps its place.
 */
export const FOOTPRINT_STATES = ["requested", "queued", "provisioning", "running", "stopping", "preempting"];

/**
 * An instance in the footprint, as a condition on `alias`'s columns: one of FOOTPRINT_STATES, except an
 * instance in its notice because its organization's higher-priority work preempted it (preempted_for set):
 * it stops at the notice's end instead of going back to the queue, so it no longer counts.
 */
export function inFootprintSql(alias?: string): SQL {
  const c = (col: string) => sql.raw(alias ? `${alias}.${col}` : col);
  return sql`(${c("state")} in ${sql.raw(`('${FOOTPRINT_STATES.join("','")}')`)} and not (${c("state")} = 'preempting' and ${c("preempted_for")} is not null))`;
}
const HELD = sql.raw(`('${HELD_STATES.join("','")}')`);

export type QuotaKey = { orgId: string; gpuModelId: string; regionCode: string };

/**
 * Serializes launches and starts for one (organization, GPU model, region) until the transaction ends, so
 * two concurrent launches cannot both see the same free quota.
 */
export async function lockQuota(tx: Tx, k: QuotaKey): Promise<void> {
  await tx.execute(sql`select ${quotaLockSql(k)}`);
}

/**
 * lockQuota's lock as an expression, for a caller that takes it inside a statement it runs anyway (launch,
 * with its events: one round trip less). The count that relies on it must be a later statement, whose
 * snapshot is taken once the lock is held.
 */
export function quotaLockSql(k: QuotaKey): SQL {
  return quotaLockOf(sql`${k.orgId}`, sql`${k.gpuModelId}`, sql`${k.regionCode}`);
}

/**
 * The same lock keyed by expressions of the statement that takes it (launch takes it in the statement that
 * reads its facts, from the organization, offering and region it finds): the key is built the same way.
 */
export function quotaLockOf(orgId: SQL, gpuModelId: SQL, regionCode: SQL): SQL {
  return sql`pg_advisory_xact_lock(hashtext('forja:quota'),
    hashtext(${orgId}::text || '/' || ${gpuModelId}::text || '/' || ${regionCode}::text))`;
}

export type QuotaStanding = {
  nominal: number;
  borrowingLimit: number;
  lendingLimit: number | null;
  inCohort: boolean;
  /** Admitted footprint (queued and holding), slices. */
  footprint: number;
  /** Held now (not queued, not in a notice), slices. */
  held: number;
  /** Idle cohort capacity this organization could borrow now, slices. */
  borrowableNow: number;
  source: "organization" | "default" | "builtin";
};

export async function quotaStanding(exec: Executor, k: QuotaKey): Promise<QuotaStanding> {
  const orgs = await cohortOf(exec, [k.orgId]);
  const cohortId = orgs.get(k.orgId)?.cohortId ?? null;
  const peers = cohortId
    ? (
        await exec.execute<{ org_id: string }>(
          sql`select org_id from cohort_members where cohort_id = ${cohortId}`,
        )
      ).rows.map((r) => r.org_id)
    : [k.orgId];
  const levels = await effectiveLevels(exec, peers, [k.gpuModelId], k.regionCode);
  const use = await exec.execute<{ org_id: string; held: number; footprint: number }>(sql`
    select org_id,
      coalesce(sum(gpu_count * slices_per_gpu) filter (where state in ${HELD}), 0)::int as held,
      coalesce(sum(gpu_count * slices_per_gpu) filter (where ${inFootprintSql()}), 0)::int as footprint
    from instances
    where org_id = any(${`{${peers.join(",")}}`}::uuid[]) and gpu_model_id = ${k.gpuModelId}
      and region_code = ${k.regionCode}
    group by org_id`);
  const held = new Map(use.rows.map((r) => [`${r.org_id}/${k.gpuModelId}`, Number(r.held)]));
  const mine = use.rows.find((r) => r.org_id === k.orgId);
  const lvl = levels.get(`${k.orgId}/${k.gpuModelId}`);
  if (!lvl) throw new Error("no quota level resolved");
  let borrowableNow = 0;
  if (cohortId) {
    const pool = poolOf({ levels }, peers, k.gpuModelId, held);
    borrowableNow = Math.max(0, pool.pool - pool.borrowed);
  }
  return {
    nominal: lvl.nominal,
    borrowingLimit: cohortId ? lvl.borrowingLimit : 0,
    lendingLimit: lvl.lendingLimit,
    inCohort: cohortId !== null,
    footprint: Number(mine?.footprint ?? 0),
    held: Number(mine?.held ?? 0),
    borrowableNow,
    source: lvl.source,
  };
}

/**
 * The organization's suspension reason (null when not suspended) as a scalar subquery, for a caller that
 * resolves several facts in one statement (launch); refuseIfSuspended turns what it read into the refusal.
 */
export function suspensionReasonSql(orgId: string | SQL): SQL {
  return sql`(select reason from org_suspensions where org_id = ${orgId})`;
}

export function refuseIfSuspended(reason: string | null | undefined): void {
  if (reason == null) return;
  throw new ForbiddenError(
    `Your organization is suspended by the platform operator (${reason}); new work cannot start.`,
    { reason: "org_suspended", suspensionReason: reason },
  );
}

export async function assertNotSuspended(exec: Executor, orgId: string): Promise<void> {
  const res = await exec.execute<{ reason: string | null }>(
    sql`select ${suspensionReasonSql(orgId)} as reason`,
  );
  refuseIfSuspended(res.rows[0]?.reason);
}

type AdmissionStanding = {
  nominal: number;
  borrowingLimit: number;
  footprint: number;
  /** The project's share and what its instances already hold or wait for, slices (null: no share set). */
  share: number | null;
  shareUsed: number;
  /** The organization's policy: higher-priority work may preempt its lower-priority work. */
  preempt: boolean;
};

/** admissionStandingSql's row, as the database returns it (a caller reading it within its own statement too). */
export type AdmissionStandingRow = {
  nominal: number;
  borrowing: number;
  in_cohort: boolean;
  footprint: number;
  share: number | null;
  share_used: number;
  preempt: boolean;
};

/**
 * What admission needs, in one statement (it runs inside the serialized section, so every round trip counts):
 * the organization's levels (its row, else the most specific default, else the built-in), whether it is in a
 * cohort (borrowing exists only there), its footprint, the project's share with its use, and its policy. Its
 * snapshot must be taken once the quota lock is held: a later statement than the one that took it.
 */
export function admissionStandingSql(k: QuotaKey & { projectId: string }): SQL {
  return sql`
    select l.nominal, l.borrowing,
      exists (select 1 from cohort_members c where c.org_id = o.id) as in_cohort,
      (select coalesce(sum(i.gpu_count * i.slices_per_gpu), 0) from instances i
        where i.org_id = o.id and i.gpu_model_id = m.model and i.region_code = ${k.regionCode}
          and ${inFootprintSql("i")})::int as footprint,
      p.share_gpus * ${SLICES_PER_GPU} as share,
      -- Read only when the project has a share, and through the organization's index: this subquery was run
      -- with no share too, reading every active instance of every organization (issue 13: a launch's cost grew
      -- with the fleet's active instances, 8 ms at 8,000).
      case when p.project_id is null then 0 else coalesce((select sum(i.gpu_count * i.slices_per_gpu)
        from instances i
        where i.org_id = o.id and i.project_id = p.project_id and i.gpu_model_id = p.gpu_model_id
          and i.region_code = p.region_code and ${inFootprintSql("i")}), 0) end::int as share_used,
      o2.preempt_lower_priority as preempt
    from (select ${k.orgId}::uuid as id) o
    join organizations o2 on o2.id = o.id
    cross join (select ${k.gpuModelId}::text as model) m
    ${levelsJoin(k.regionCode)}
    left join project_quotas p on p.project_id = ${k.projectId}::uuid and p.gpu_model_id = m.model
      and p.region_code = ${k.regionCode}`;
}

function standingOf(r: AdmissionStandingRow): AdmissionStanding {
  return {
    nominal: Number(r.nominal) * SLICES_PER_GPU,
    borrowingLimit: r.in_cohort ? Number(r.borrowing) * SLICES_PER_GPU : 0,
    footprint: Number(r.footprint),
    share: r.share === null ? null : Number(r.share),
    shareUsed: Number(r.share_used),
    preempt: Boolean(r.preempt),
  };
}

async function admissionStanding(tx: Tx, k: QuotaKey & { projectId: string }): Promise<AdmissionStanding> {
  // Prepared: launch and start run it on every call, and its planning took longer than running it (issue 13).
  const res = await executePrepared<AdmissionStandingRow>(tx, admissionStandingSql(k));
  const r = res.rows[0];
  if (!r) throw new Error("no quota level resolved");
  return standingOf(r);
}

/** A running instance a higher-priority launch may preempt (the organization's policy), in preemption order. */
type Preemptible = { id: string; projectId: string; slices: number };

/**
 * The organization's running work of the same GPU model and region with a lower priority than `priority`,
 * lowest priority first, then youngest (the order reclaim uses), locked: a victim its user stops meanwhile
 * is read as it is after that commits, and leaves the list.
 */
async function preemptibleWork(
  tx: Tx,
  k: QuotaKey & { priority: number; instanceId?: string },
): Promise<Preemptible[]> {
  const res = await tx.execute<{ id: string; project_id: string; slices: number }>(sql`
    select id, project_id, gpu_count * slices_per_gpu as slices from instances
    where org_id = ${k.orgId} and gpu_model_id = ${k.gpuModelId} and region_code = ${k.regionCode}
      and state = 'running' and priority < ${k.priority}
      and id is distinct from ${k.instanceId ?? null}::uuid
    order by priority, started_at desc nulls last, created_at desc, id
    for update`);
  return res.rows.map((r) => ({ id: r.id, projectId: r.project_id, slices: Number(r.slices) }));
}

/**
 * Which preemptible work to give notice so that the organization's footprint (and the project's, when it has
 * a share) fits with the request: in preemption order, each victim taken only while a level it lowers is
 * still over. Null when even all of it would not make room (then nothing is preempted).
 */
export function choosePreemptions(
  over: { org: number; share: number },
  projectId: string,
  work: Preemptible[],
): Preemptible[] | null {
  let org = over.org;
  let share = over.share;
  const chosen: Preemptible[] = [];
  for (const w of work) {
    if (org <= 0 && share <= 0) break;
    const sameProject = w.projectId === projectId;
    if (org <= 0 && !sameProject) continue;
    chosen.push(w);
    org -= w.slices;
    if (sameProject) share -= w.slices;
  }
  return org <= 0 && share <= 0 ? chosen : null;
}

export type Admitted = {
  guaranteed: number;
  borrowed: number;
  /** Running lower-priority instances of the organization to preempt with notice (its policy) to make room. */
  preempt: string[];
};

/**
 * Admission for launch and start, under lockQuota: the organization's footprint may reach nominal plus its
 * borrowing limit (inside a cohort), and a project with a share may not go past it. `alreadyCounted`: the
 * request's own row is already written in this transaction (and so in the count). When the organization lets
 * higher-priority work preempt (its policy) and `priority` is given, a request over a level is admitted if
 * preempting its running lower-priority work makes room: `preempt` names it, and the caller gives it notice
 * in the same transaction (preempted_for set, so it leaves the footprint). `standing`: admissionStandingSql's
 * row when the caller read it within a statement of its own (then not read here; it must not count the
 * request's own row: alreadyCounted false).
 */
export async function assertQuotaAdmits(
  tx: Tx,
  input: QuotaKey & {
    projectId: string;
    gpuModelName: string;
    slices: number;
    alreadyCounted?: boolean;
    priority?: number;
    instanceId?: string;
    standing?: AdmissionStandingRow;
  },
): Promise<Admitted> {
  if (input.standing && input.alreadyCounted) throw new Error("a standing read with the row counts it twice");
  const s = input.standing ? standingOf(input.standing) : await admissionStanding(tx, input);
  const own = input.alreadyCounted ? input.slices : 0;
  const limit = s.nominal + s.borrowingLimit;
  const gpus = gpusOfSlices;
  const ps = s.share === null ? null : { share: s.share, used: s.shareUsed - own };
  let others = s.footprint - own;
  const over = {
    org: others + input.slices - limit,
    share: ps ? ps.used + input.slices - ps.share : 0,
  };
  let preempt: Preemptible[] = [];
  if ((over.org > 0 || over.share > 0) && s.preempt && input.priority !== undefined) {
    const work = await preemptibleWork(tx, { ...input, priority: input.priority });
    preempt = choosePreemptions(over, input.projectId, work) ?? [];
  }
  const freed = preempt.reduce((n, w) => n + w.slices, 0);
  const freedInProject = preempt
    .filter((w) => w.projectId === input.projectId)
    .reduce((n, w) => n + w.slices, 0);
  const preemptNote =
    s.preempt && input.priority !== undefined
      ? " Your organization lets higher-priority work preempt lower-priority work, but not enough of it runs here to make room."
      : "";
  if (others - freed + input.slices > limit) {
    throw new QuotaExceededError(
      `Quota exceeded for ${input.gpuModelName} in ${input.regionCode}: your organization may hold ` +
        `${gpus(limit)} GPUs there` +
        (s.borrowingLimit > 0 ? ` (${gpus(s.nominal)} guaranteed, ${gpus(s.borrowingLimit)} borrowed)` : "") +
        `, ${gpus(others)} ${others === 7 ? "is" : "are"} already queued or in use, and this needs ` +
        `${gpus(input.slices)} more. Stop or terminate an instance, or ask an organization admin to request more quota.` +
        preemptNote,
      {
        reason: "quota_exceeded",
        gpuModelId: input.gpuModelId,
        gpuModelName: input.gpuModelName,
        regionCode: input.regionCode,
        limitGpus: gpus(limit),
        nominalGpus: gpus(s.nominal),
        borrowingLimitGpus: gpus(s.borrowingLimit),
        usedGpus: gpus(others),
        requestedGpus: gpus(input.slices),
        howToIncrease: "request more quota",
        preemption: preemptNote ? "on" : "off",
      },
    );
  }
  if (ps && ps.used - freedInProject + input.slices > ps.share) {
    throw new QuotaExceededError(
      `This project's share of ${input.gpuModelName} in ${input.regionCode} is ${gpus(ps.share)} ` +
        `GPUs and ${gpus(ps.used)} are already queued or in use; ask an organization admin to raise the share.` +
        preemptNote,
      {
        reason: "project_share_used",
        gpuModelId: input.gpuModelId,
        gpuModelName: input.gpuModelName,
        regionCode: input.regionCode,
        shareGpus: gpus(ps.share),
        usedGpus: gpus(ps.used),
        requestedGpus: gpus(input.slices),
        preemption: preemptNote ? "on" : "off",
      },
    );
  }
  others -= freed;
  const guaranteed = Math.max(0, Math.min(input.slices, s.nominal - others));
  return { guaranteed, borrowed: input.slices - guaranteed, preempt: preempt.map((w) => w.id) };
}
