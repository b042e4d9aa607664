import { sql } from "drizzle-orm";
import { type Ctx, QuotaExceededError, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { launch, mulberry32, placeQueuedInstances, reconcileInstances, terminate } from "@/lib/provisioning";
// biome-ignore lint/style/noRestrictedImports: the sim builds its regions and organizations the way the tests do
import { newFleet, newOrg, notebookSpec } from "@/lib/provisioning/__tests__/fixtures";
import { checkQuotaInvariants, createCohort, setCohortMember, setOrgQuota } from "@/lib/quotas";
import type { Benchmark } from "./types";

/** A workload class: its instance type, mean run time, priority and share of the offered GPU-hours. */
export type WorkloadClass = {
  name: string;
  instanceType: string;
  gpus: number;
  meanMinutes: number;
  priority: number;
  share: number;
};

export const CLASSES: WorkloadClass[] = [
  { name: "small", instanceType: "h100.1x", gpus: 1, meanMinutes: 40, priority: 0, share: 0.3 },
  { name: "medium", instanceType: "h100.2x", gpus: 2, meanMinutes: 120, priority: 10, share: 0.3 },
  { name: "large", instanceType: "h100.4x", gpus: 4, meanMinutes: 300, priority: 20, share: 0.4 },
];

export type QuotaSimConfig = {
  cohorts: number;
  orgsPerCohort: number;
  /** Every organization's nominal quota (GPUs); the fleet is exactly the sum of them. */
  nominalGpus: number;
  /** How far beyond nominal an organization may borrow inside its cohort (the borrowing run). */
  borrowingGpus: number;
  /** Offered GPU-hours per hour over the fleet's GPUs (> 1: faster than nominal capacity). */
  load: number;
  /** Relative demand of the organizations inside each cohort (cycled): some busy, some mostly idle. */
  demand: number[];
  horizonMinutes: number;
  /** Utilization is averaged after this (the fleet fills up first). */
  warmupMinutes: number;
  stepMinutes: number;
  seed: number;
};

export const QUOTA_SIM: QuotaSimConfig = {
  cohorts: 5,
  orgsPerCohort: 6,
  nominalGpus: 4,
  borrowingGpus: 8,
  load: 1.3,
  demand: [4, 2, 1, 1, 0.5, 0.25],
  horizonMinutes: 4 * 60,
  warmupMinutes: 60,
  stepMinutes: 2,
  seed: 20261202,
};

type Job = { org: number; cls: number; arrival: number; minutes: number };

/** The arrival stream (Poisson per class, exponential run times), the same for both runs. */
export function jobStream(cfg: QuotaSimConfig): Job[] {
  const rand = mulberry32(cfg.seed);
  const orgs = cfg.cohorts * cfg.orgsPerCohort;
  const weights = Array.from({ length: orgs }, (_, i) => cfg.demand[i % cfg.orgsPerCohort] as number);
  const total = weights.reduce((s, w) => s + w, 0);
  const pickOrg = () => {
    let u = rand() * total;
    for (const [i, w] of weights.entries()) {
      u -= w;
      if (u < 0) return i;
    }
    return orgs - 1;
  };
  const offered = cfg.load * orgs * cfg.nominalGpus; // GPUs kept busy per minute of arrivals
  const jobs: Job[] = [];
  for (const [cls, c] of CLASSES.entries()) {
    const perMinute = (c.share * offered) / (c.gpus * c.meanMinutes);
    for (
      let t = -Math.log(1 - rand()) / perMinute;
      t < cfg.horizonMinutes;
      t += -Math.log(1 - rand()) / perMinute
    ) {
      const minutes = Math.max(5, Math.round(-Math.log(1 - rand()) * c.meanMinutes));
      jobs.push({ org: pickOrg(), cls, arrival: t, minutes });
    }
  }
  return jobs.sort((a, b) => a.arrival - b.arrival);
}

export type ClassFigures = { name: string; jobs: number; admitted: number; meanMin: number; p95Min: number };
export type QuotaSimRun = {
  utilization: number;
  classes: ClassFigures[];
  reclaimed: number;
  /**
   * Per organization, GPU-minutes run / GPU-minutes its jobs could have run by the end had each started on
   * arrival (1 = nobody waited); spread = max − min; Jain's index over them (1 = all organizations equal).
   */
  fairness: { min: number; max: number; spread: number; jain: number };
  /** Checks of the quota invariants that found a violation (must stay 0). */
  violations: number;
  launches: number;
};

type Tenant = { ctx: Ctx; slug: string; orgId: string };

/** 30 organizations (cfg) in cohorts, with the quotas of one run in its own region. */
async function tenants(cfg: QuotaSimConfig) {
  const out: Tenant[] = [];
  let op: Ctx | null = null;
  const cohortIds: string[] = [];
  for (let i = 0; i < cfg.cohorts * cfg.orgsPerCohort; i++) {
    const o = await newOrg(`qsim${i}`);
    op ??= { actor: { ...(o.actor as UserActor), isOperator: true } };
    out.push({ ctx: o.ctx, slug: o.slug, orgId: o.org.id });
  }
  const operator = op as Ctx;
  for (let c = 0; c < cfg.cohorts; c++) {
    const cohort = await createCohort(operator, { name: `qsim-${Date.now().toString(36)}-${c}-${cfg.seed}` });
    cohortIds.push(cohort.id);
  }
  for (const [i, t] of out.entries()) {
    const cohortId = cohortIds[Math.floor(i / cfg.orgsPerCohort)] as string;
    await setCohortMember(operator, { cohortId, orgId: t.orgId, weight: 1 });
  }
  return { tenants: out, operator };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/**
 * One run of the stream on its own region of the simulated provider, in simulated time: each step the jobs
 * that arrived are launched (a launch the quota refuses waits at the client and is tried again next step, head
 * of each organization's backlog first), the scheduler ticks and the reconciler passes, as the worker does;
 * a job that has run its minutes is terminated; a reclaimed one is requeued (auto-recover) with what it has
 * left; a failed start is launched again. Time to admission: arrival → first placed (a job still waiting at
 * the end counts with its wait so far).
 */
async function simulate(
  cfg: QuotaSimConfig,
  jobs: Job[],
  ts: Tenant[],
  operator: Ctx,
  borrowingGpus: number,
): Promise<QuotaSimRun> {
  const orgs = ts.length;
  const fleet = await newFleet(
    Array.from({ length: Math.ceil((orgs * cfg.nominalGpus) / 8) }, () => ({ gpus: 8 })),
  );
  const capacity = Math.ceil((orgs * cfg.nominalGpus) / 8) * 8;
  for (const t of ts) {
    await setOrgQuota(operator, {
      orgId: t.orgId,
      gpuModelId: "h100",
      regionCode: fleet.region,
      nominalGpus: cfg.nominalGpus,
      borrowingLimitGpus: borrowingGpus,
      lendingLimitGpus: null,
    });
  }
  const start = new Date("2030-03-04T08:00:00Z").getTime();
  let now = start;
  const clock = () => new Date(now);
  for (const t of ts) t.ctx = { ...t.ctx, now: clock };

  type Live = { job: number; remaining: number };
  const live = new Map<string, Live>();
  /** Minutes still to run of a job whose start failed (launched again). */
  const left = new Map<number, number>();
  const admittedAt = new Map<number, number>();
  const served = new Array<number>(orgs).fill(0);
  const asked = new Array<number>(orgs).fill(0);
  const backlog: number[][] = Array.from({ length: orgs }, () => []);
  const blocked = new Set<number>();
  let next = 0;
  let reclaimed = 0;
  let violations = 0;
  let launches = 0;
  let busy = 0;
  let samples = 0;
  const db = getDb();
  const scheduler = () => systemCtx("scheduler", { now: clock });

  for (let minute = 0; minute < cfg.horizonMinutes; minute += cfg.stepMinutes) {
    now = start + minute * 60_000;
    for (; next < jobs.length && (jobs[next] as Job).arrival <= minute; next++) {
      const j = jobs[next] as Job;
      backlog[j.org]?.push(next);
      // What it could have run by the end had it started on arrival.
      const could = Math.min(j.minutes, cfg.horizonMinutes - j.arrival);
      asked[j.org] = (asked[j.org] ?? 0) + could * (CLASSES[j.cls] as WorkloadClass).gpus;
    }
    for (const [o, queue] of backlog.entries()) {
      const t = ts[o] as Tenant;
      // Refused for quota: nothing to try until one of its instances ends (what it queues counts too).
      while (queue.length > 0 && !blocked.has(o)) {
        const id = queue[0] as number;
        const j = jobs[id] as Job;
        const c = CLASSES[j.cls] as WorkloadClass;
        try {
          launches++;
          const r = await launch(
            t.ctx,
            t.slug,
            notebookSpec(fleet.region, {
              instanceType: c.instanceType,
              priority: c.priority,
              autoRecover: true,
            }),
          );
          queue.shift();
          live.set(r.instance.id, { job: id, remaining: left.get(id) ?? j.minutes });
        } catch (err) {
          if (!(err instanceof QuotaExceededError)) throw err;
          blocked.add(o);
        }
      }
    }
    const tick = await placeQueuedInstances(scheduler(), { regionCode: fleet.region });
    reclaimed += tick.reclaimed;
    await reconcileInstances(systemCtx("provider", { now: clock }), { regionCode: fleet.region });

    const rows = await db.execute<{ id: string; state: string }>(sql`
      select id, state from instances where region_code = ${fleet.region}
        and state in ('queued', 'provisioning', 'running', 'stopping', 'preempting', 'failed', 'terminated')
        and (state not in ('failed', 'terminated') or updated_at = ${clock()})`);
    let held = 0;
    for (const r of rows.rows) {
      const l = live.get(r.id);
      if (!l) continue;
      const j = jobs[l.job] as Job;
      const gpus = (CLASSES[j.cls] as WorkloadClass).gpus;
      if (r.state === "provisioning" && !admittedAt.has(l.job)) admittedAt.set(l.job, minute - j.arrival);
      if (r.state !== "queued" && r.state !== "failed" && r.state !== "terminated") held += gpus;
      if (r.state === "running") {
        const ran = Math.min(cfg.stepMinutes, l.remaining);
        l.remaining -= ran;
        served[j.org] = (served[j.org] ?? 0) + ran * gpus;
        if (l.remaining <= 0) {
          await terminate(ts[j.org]?.ctx as Ctx, ts[j.org]?.slug as string, r.id);
          live.delete(r.id);
          blocked.delete(j.org);
        }
      } else if (r.state === "failed") {
        // The start failed (the simulated fleet fails ~3 %): the user launches the same job again.
        live.delete(r.id);
        left.set(l.job, l.remaining);
        blocked.delete(j.org);
        backlog[j.org]?.unshift(l.job);
      }
    }
    if (minute >= cfg.warmupMinutes) {
      busy += held;
      samples++;
    }
    // The quota invariants (lib/quotas, SQL) every 10 steps and at the end: no level overshot.
    const last = minute + cfg.stepMinutes >= cfg.horizonMinutes;
    if ((minute / cfg.stepMinutes) % 10 === 0 || last) {
      if ((await checkQuotaInvariants(db, { regionCode: fleet.region })).length > 0) violations++;
    }
  }

  const end = cfg.horizonMinutes;
  const classes = CLASSES.map((c, cls) => {
    const waits: number[] = [];
    let admitted = 0;
    let count = 0;
    for (const [id, j] of jobs.entries()) {
      if (j.cls !== cls) continue;
      count++;
      const w = admittedAt.get(id);
      if (w !== undefined) admitted++;
      waits.push(w ?? end - j.arrival);
    }
    waits.sort((a, b) => a - b);
    const meanMin = waits.reduce((s, w) => s + w, 0) / Math.max(1, waits.length);
    return { name: c.name, jobs: count, admitted, meanMin, p95Min: percentile(waits, 0.95) };
  });
  const ratios = served.map((s, i) => s / Math.max(1, asked[i] ?? 0)).filter((_, i) => (asked[i] ?? 0) > 0);
  const sum = ratios.reduce((s, r) => s + r, 0);
  const sumSq = ratios.reduce((s, r) => s + r * r, 0);
  const min = Math.min(...ratios);
  const max = Math.max(...ratios);
  return {
    utilization: busy / Math.max(1, samples) / capacity,
    classes,
    reclaimed,
    fairness: { min, max, spread: max - min, jain: (sum * sum) / Math.max(1e-9, ratios.length * sumSq) },
    violations,
    launches,
  };
}

/**
 * The same stream twice, each on its own region: borrowing inside cohorts, then hard quotas (the same
 * organizations and cohorts with borrowing limit 0, which is how Forja runs until an operator allows it).
 */
export async function runQuotaSim(cfg: QuotaSimConfig = QUOTA_SIM) {
  const jobs = jobStream(cfg);
  const { tenants: ts, operator } = await tenants(cfg);
  const borrowing = await simulate(cfg, jobs, ts, operator, cfg.borrowingGpus);
  const hard = await simulate(cfg, jobs, ts, operator, 0);
  return { jobs: jobs.length, borrowing, hard };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const min = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} min` : "—");

export const quotaSim: Benchmark = {
  name: "quota-sim",
  description:
    "30 organizations in 5 cohorts, equal nominal quotas, a stream faster than nominal capacity, in simulated time: borrowing vs hard quotas",
  async setup() {
    const cfg = QUOTA_SIM;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { jobs, borrowing, hard } = await runQuotaSim(cfg);
    const cpu = process.cpuUsage(cpu0);
    const orgs = cfg.cohorts * cfg.orgsPerCohort;
    const line = (label: string, r: QuotaSimRun) => [
      `${label}: fleet utilization ${pct(r.utilization)} · reclaimed ${r.reclaimed} · fairness (GPU-min run / could have run, per organization) ` +
        `min ${r.fairness.min.toFixed(2)} max ${r.fairness.max.toFixed(2)} spread ${r.fairness.spread.toFixed(2)} Jain ${r.fairness.jain.toFixed(2)} · ` +
        `quota violations ${r.violations} · ${r.launches} launch calls`,
      ...r.classes.map(
        (c) =>
          `   ${c.name.padEnd(6)} ${String(c.jobs).padStart(4)} jobs, ${String(c.admitted).padStart(4)} admitted: ` +
          `time to admission mean ${min(c.meanMin).padStart(10)}  p95 ${min(c.p95Min).padStart(10)}`,
      ),
    ];
    return {
      variants: [],
      notes: [
        `${orgs} organizations in ${cfg.cohorts} cohorts, nominal ${cfg.nominalGpus} H100 each, fleet ${orgs * cfg.nominalGpus} GPUs; ` +
          `offered ${cfg.load}× nominal capacity for ${cfg.horizonMinutes / 60} h in ${cfg.stepMinutes}-min steps (${jobs} jobs; utilization after ${cfg.warmupMinutes} min)`,
        `classes: ${CLASSES.map((c) => `${c.name} ${c.gpus} GPU ~${c.meanMinutes} min priority ${c.priority} (${pct(c.share)} of GPU-hours)`).join("; ")}; ` +
          `demand inside a cohort ${cfg.demand.join(":")}`,
        ...line(`borrowing (limit ${cfg.borrowingGpus} GPUs)`, borrowing),
        ...line("hard quotas", hard),
        `(a job still waiting at the end counts with its wait so far) · CPU of this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, wall ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      ],
    };
  },
};
