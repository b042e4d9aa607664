/**
 * Quota at placement, as a pure function of one region's quota state (the scheduler loads it under the
 * region's placement lock). All amounts are in compute slices (a GPU is 7).
 *
 * Levels per organization × GPU model: nominal N (guaranteed), borrowing limit BL (how far beyond N it may
 * go, only inside a cohort), lending limit LL (how much of its unused nominal others may use; null = all).
 * "Held" H counts instances holding GPUs and not in a reclaim/preemption notice. An organization borrows
 * max(0, H − N); a cohort's pool for a model is Σ min(max(0, N − H), LL) over its members. The rule kept at
 * every tick: Σ borrowed ≤ pool per cohort × model, H ≤ N + BL per organization.
 *
 * Order (Kueue-like): first every request that fits its organization's nominal (priority, FIFO); then the
 * rest borrow, one at a time, from the organization with the lowest weighted dominant share (its largest
 * H / cohort nominal over the region's GPU models, divided by its weight), so no one is starved while idle
 * capacity waits. Reclaim: when lenders' admitted guaranteed work shrinks the pool below what is borrowed,
 * running borrowed instances are reclaimed, lowest priority first, then youngest. And an organization that
 * holds more than its own limit (N + BL in a cohort, N outside one) after an operator lowered it (a confirmed
 * cut, an expired temporary raise, a new default) has its running work reclaimed in the same order until it
 * fits: what the operator's confirmation named.
 */
import type { QueueReason } from "./reasons";
import { gpusOfSlices } from "./units";

export type GateLevel = { nominal: number; borrowingLimit: number; lendingLimit: number | null };
export type GateOrg = { cohortId: string | null; weight: number };
export type GateRequest = {
  id: string;
  orgId: string;
  projectId: string;
  modelId: string;
  slices: number;
};
export type GateHolder = {
  id: string;
  orgId: string;
  modelId: string;
  slices: number;
  priority: number;
  startedAt: number;
  running: boolean;
  borrowed: boolean;
};
export type GateInput = {
  /** Queued requests of the region in priority / FIFO order (per model; across models any order). */
  requests: GateRequest[];
  orgs: Map<string, GateOrg>;
  /** Key `${orgId}/${modelId}`; every organization in `orgs` × model seen must have one. */
  levels: Map<string, GateLevel>;
  /** Key `${orgId}/${modelId}`: slices held now (not in a notice). */
  held: Map<string, number>;
  /** Key `${projectId}/${modelId}`: the project's share and what it holds. */
  projectShares: Map<string, { share: number; held: number }>;
  /** Key `${orgId}/${projectId}`: why the budget blocks it. */
  budgetBlocked: Map<string, string>;
  suspended: Set<string>;
  holders: GateHolder[];
};
export type GateResult = {
  /** In the order the placer should try them; `borrowed` when it goes beyond nominal. */
  admitted: Array<{ id: string; borrowed: boolean }>;
  reasons: Map<string, QueueReason>;
  /** Running borrowed instances to reclaim with notice (a lender of the cohort needs its nominal back). */
  reclaim: string[];
  /** Running instances to reclaim with notice because their organization holds more than its lowered limit. */
  reclaimOverLimit: string[];
  /** `${orgId}/${modelId}` now within nominal: their borrowed marks can be cleared. */
  withinNominal: string[];
};

const key = (a: string, b: string) => `${a}/${b}`;

/**
 * `key`, remembered for one gate: the same pair gives the same string, whose hash the engine keeps, so a tick's
 * 10,000 requests of a few organizations do not build and hash 50,000 fresh strings (most of the gate's time).
 */
function keyMemo(): (a: string, b: string) => string {
  const byFirst = new Map<string, Map<string, string>>();
  return (a, b) => {
    let bySecond = byFirst.get(a);
    if (!bySecond) {
      bySecond = new Map();
      byFirst.set(a, bySecond);
    }
    let k = bySecond.get(b);
    if (k === undefined) {
      k = key(a, b);
      bySecond.set(b, k);
    }
    return k;
  };
}

const NO_LEVEL: GateLevel = Object.freeze({ nominal: 0, borrowingLimit: 0, lendingLimit: 0 });

/** The level under an `${orgId}/${modelId}` key already built; none set is all zero. */
function levelAt(levels: GateInput["levels"], k: string): GateLevel {
  return levels.get(k) ?? NO_LEVEL;
}

export function levelOf(input: Pick<GateInput, "levels">, orgId: string, modelId: string): GateLevel {
  return levelAt(input.levels, key(orgId, modelId));
}

/** Members of each cohort, and the models to balance over. */
function cohortsOf(orgs: Map<string, GateOrg>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [orgId, o] of orgs) {
    if (!o.cohortId) continue;
    out.set(o.cohortId, [...(out.get(o.cohortId) ?? []), orgId]);
  }
  return out;
}

/** What an organization may hold of a model: nominal plus its borrowing limit, the latter only in a cohort. */
export function limitOf(input: Pick<GateInput, "levels" | "orgs">, orgId: string, modelId: string): number {
  const lvl = levelOf(input, orgId, modelId);
  return input.orgs.get(orgId)?.cohortId ? lvl.nominal + lvl.borrowingLimit : lvl.nominal;
}

export type PoolState = { borrowed: number; pool: number };

/** Borrowed and lendable slices of one cohort for one model, given what everyone holds. */
export function poolOf(
  input: Pick<GateInput, "levels">,
  members: string[],
  modelId: string,
  held: Map<string, number>,
): PoolState {
  let borrowed = 0;
  let pool = 0;
  for (const m of members) {
    const lvl = levelOf(input, m, modelId);
    const h = held.get(key(m, modelId)) ?? 0;
    borrowed += Math.max(0, h - lvl.nominal);
    const unused = Math.max(0, lvl.nominal - h);
    pool += lvl.lendingLimit === null ? unused : Math.min(unused, lvl.lendingLimit);
  }
  return { borrowed, pool };
}

export function gateQueue(input: GateInput): GateResult {
  const held = new Map(input.held);
  const projectHeld = new Map([...input.projectShares].map(([k, v]) => [k, v.held]));
  const members = cohortsOf(input.orgs);
  const models = [
    ...new Set([...input.requests.map((r) => r.modelId), ...input.holders.map((h) => h.modelId)]),
  ];
  const cohortNominal = new Map<string, number>();
  for (const [cohortId, list] of members) {
    for (const model of models) {
      const n = list.reduce((s, m) => s + levelOf(input, m, model).nominal, 0);
      cohortNominal.set(key(cohortId, model), n);
    }
  }
  const out: GateResult = {
    admitted: [],
    reasons: new Map(),
    reclaim: [],
    reclaimOverLimit: [],
    withinNominal: [],
  };
  const byId = new Map(input.requests.map((r) => [r.id, r]));
  const gpus = gpusOfSlices;
  const keyOf = keyMemo();
  const take = (r: GateRequest) => {
    const ok = keyOf(r.orgId, r.modelId);
    held.set(ok, (held.get(ok) ?? 0) + r.slices);
    const pk = keyOf(r.projectId, r.modelId);
    if (projectHeld.has(pk)) projectHeld.set(pk, (projectHeld.get(pk) ?? 0) + r.slices);
  };

  // Marked-borrowed work goes first, then lowest priority, then youngest (the order admin.ts's preview names).
  const victims = input.holders
    .filter((x) => x.running)
    .sort(
      (a, b) =>
        Number(b.borrowed) - Number(a.borrowed) || a.priority - b.priority || b.startedAt - a.startedAt,
    );
  const reclaimed = new Set<string>();
  // An organization over its own limit (the operator lowered it) gives back running work until it fits.
  for (const v of victims) {
    const k = key(v.orgId, v.modelId);
    if ((held.get(k) ?? 0) <= limitOf(input, v.orgId, v.modelId)) continue;
    held.set(k, (held.get(k) ?? 0) - v.slices);
    reclaimed.add(v.id);
    out.reclaimOverLimit.push(v.id);
  }

  // Pass 1: what fits within nominal (and the project's share), in queue order.
  const candidates: GateRequest[] = [];
  for (const r of input.requests) {
    if (input.suspended.has(r.orgId)) {
      out.reasons.set(r.id, { code: "org_suspended", params: {} });
      continue;
    }
    const budget = input.budgetBlocked.get(keyOf(r.orgId, r.projectId));
    if (budget !== undefined) {
      out.reasons.set(r.id, { code: "budget_blocked", params: { budget } });
      continue;
    }
    const pk = keyOf(r.projectId, r.modelId);
    const share = input.projectShares.get(pk);
    const ph = projectHeld.get(pk) ?? 0;
    if (share && ph + r.slices > share.share) {
      out.reasons.set(r.id, {
        code: "project_share_used",
        params: { share: gpus(share.share), inUse: gpus(ph), requested: gpus(r.slices) },
      });
      continue;
    }
    const ok = keyOf(r.orgId, r.modelId);
    if ((held.get(ok) ?? 0) + r.slices <= levelAt(input.levels, ok).nominal) {
      take(r);
      out.admitted.push({ id: r.id, borrowed: false });
    } else candidates.push(r);
  }

  // Pass 2: borrowers, lowest weighted dominant share first.
  const share = (orgId: string) => {
    const o = input.orgs.get(orgId);
    if (!o?.cohortId) return Number.POSITIVE_INFINITY;
    let dominant = 0;
    for (const model of models) {
      const cap = Math.max(1, cohortNominal.get(key(o.cohortId, model)) ?? 0);
      dominant = Math.max(dominant, (held.get(key(orgId, model)) ?? 0) / cap);
    }
    return dominant / o.weight;
  };
  const byOrg = new Map<string, GateRequest[]>();
  for (const r of candidates) byOrg.set(r.orgId, [...(byOrg.get(r.orgId) ?? []), r]);
  while (byOrg.size > 0) {
    let orgId = "";
    let best = Number.POSITIVE_INFINITY;
    for (const o of byOrg.keys()) {
      const s = share(o);
      if (orgId === "" || s < best || (s === best && o < orgId)) {
        orgId = o;
        best = s;
      }
    }
    const list = byOrg.get(orgId) as GateRequest[];
    const r = list.shift() as GateRequest;
    if (list.length === 0) byOrg.delete(orgId);
    const lvl = levelOf(input, r.orgId, r.modelId);
    const h = held.get(key(r.orgId, r.modelId)) ?? 0;
    const cohortId = input.orgs.get(r.orgId)?.cohortId ?? null;
    const limit = cohortId ? lvl.nominal + lvl.borrowingLimit : lvl.nominal;
    if (h + r.slices > limit) {
      out.reasons.set(r.id, {
        code: cohortId && lvl.borrowingLimit > 0 ? "over_borrowing_limit" : "over_nominal_nothing_to_borrow",
        params: {
          nominal: gpus(lvl.nominal),
          borrowingLimit: gpus(cohortId ? lvl.borrowingLimit : 0),
          inUse: gpus(h),
          requested: gpus(r.slices),
          borrowable: 0,
        },
      });
      continue;
    }
    const team = members.get(cohortId as string) ?? [];
    const trial = new Map(held);
    trial.set(key(r.orgId, r.modelId), h + r.slices);
    const after = poolOf(input, team, r.modelId, trial);
    if (after.borrowed > after.pool) {
      const before = poolOf(input, team, r.modelId, held);
      out.reasons.set(r.id, {
        code: "over_nominal_nothing_to_borrow",
        params: {
          nominal: gpus(lvl.nominal),
          borrowingLimit: gpus(lvl.borrowingLimit),
          inUse: gpus(h),
          requested: gpus(r.slices),
          borrowable: gpus(Math.max(0, before.pool - before.borrowed)),
        },
      });
      continue;
    }
    take(r);
    out.admitted.push({ id: r.id, borrowed: true });
  }

  // Reclaim: lenders' admitted guaranteed work may have shrunk a pool below what is borrowed.
  // Marked-borrowed work goes first; others of an over-nominal organization only when its nominal was cut.
  for (const [, team] of members) {
    for (const model of models) {
      let state = poolOf(input, team, model, held);
      for (const v of victims) {
        if (state.borrowed <= state.pool) break;
        if (reclaimed.has(v.id) || v.modelId !== model || !team.includes(v.orgId)) continue;
        const k = key(v.orgId, model);
        if ((held.get(k) ?? 0) <= levelOf(input, v.orgId, model).nominal) continue;
        held.set(k, (held.get(k) ?? 0) - v.slices);
        out.reclaim.push(v.id);
        state = poolOf(input, team, model, held);
      }
    }
  }
  // Borrowed work that cannot be reclaimed yet (still provisioning, or stopping) keeps lenders' new
  // guaranteed work queued until it can: placing it now would lend more than the cohort leaves idle.
  // Reclaim starts as soon as the borrower runs (a later tick); the lender waits, its reason waiting for GPUs.
  // What this tick admitted comes back out from the end of the queue until the pool holds again.
  for (const [, team] of members) {
    for (const model of models) {
      let state = poolOf(input, team, model, held);
      for (let i = out.admitted.length - 1; i >= 0 && state.borrowed > state.pool; i--) {
        const r = byId.get((out.admitted[i] as { id: string }).id) as GateRequest;
        if (r.modelId !== model || !team.includes(r.orgId)) continue;
        const k = key(r.orgId, model);
        held.set(k, (held.get(k) ?? 0) - r.slices);
        out.admitted.splice(i, 1);
        state = poolOf(input, team, model, held);
      }
    }
  }
  // Organizations whose held use (without what this tick admits) is within nominal.
  for (const [k, h] of input.held) {
    const [orgId, modelId] = k.split("/") as [string, string];
    if (h <= levelOf(input, orgId, modelId).nominal) out.withinNominal.push(k);
  }
  return out;
}
