import "server-only";
import { sql } from "drizzle-orm";
import { type Ctx, DomainError, NotFoundError, systemCtx, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import {
  cancel,
  hashString,
  launch,
  mulberry32,
  type Provider,
  placeQueuedInstances,
  reconcileInstances,
  start,
  stop,
  terminate,
} from "@/lib/provisioning";
import { backfillMetrics } from "./history-metrics";
import { type HistoryProfile, type PlannedAction, planHistory } from "./history-plan";
import { defaultProvider } from "./provider";
import { loadProviderInstances } from "./provider-instances";

export type BackfillOptions = {
  orgId: string;
  days?: number;
  now?: Date;
  seed?: number;
  /** "demo": the 30-day demo; "small": a day with a couple of instances (end-to-end tests). */
  profile?: HistoryProfile;
  /** Raw 10 s samples are written for this last stretch only; older history gets 5-minute rollups. */
  rawSampleHours?: number;
  /** People who act in the history (launch, stop …), chosen per instance; defaults to the context's actor. */
  actors?: UserActor[];
  /** Plan region → region to use (tests run the story on a private copy of the fleet). */
  regionMap?: Record<string, string>;
};

export type BackfillResult = {
  actions: number;
  /** Actions that did not apply, by cause: a refusal's error code, or "moot" (nothing left to act on). */
  skipped: Record<string, number>;
  engineSteps: number;
  instances: number;
  events: number;
  rollupRows: number;
  rawSamples: number;
  states: Record<string, number>;
  ms: { engine: number; metrics: number; total: number };
};

/**
 * Back-fills the history of an organization by driving the real engine through time: user actions from a
 * seeded plan (launch, stop, start, terminate) with an injected clock, and between them the scheduler and
 * the reconciler exactly as the worker runs them, stepping from one due moment to the next (an action, a
 * state deadline, a max-runtime stop, a spot interruption, a scheduler tick). Instances, events, queue waits
 * and GPU allocations are therefore real history; metrics follow (5-minute rollups for the whole window, raw
 * samples for the last `rawSampleHours`).
 */
export async function backfillHistory(ctx: Ctx, opts: BackfillOptions): Promise<BackfillResult> {
  const t0 = performance.now();
  const now = (opts.now ?? new Date()).getTime();
  const days = opts.days ?? 30;
  const seed = opts.seed ?? 20_250_601;
  // The engine asks the installed provider; metrics and spot look-ahead must ask the same one.
  const provider = defaultProvider();
  const actors = opts.actors?.length ? opts.actors : ctx.actor.kind === "user" ? [ctx.actor] : [];
  if (actors.length === 0) throw new Error("backfillHistory needs a member of the organization to act as");
  const db = getDb();
  const org = (
    await db.execute<{ slug: string }>(sql`select slug from organizations where id = ${opts.orgId}`)
  ).rows[0];
  if (!org) throw new NotFoundError("Organization");
  const windowStart = new Date(now - days * 86_400_000);
  // The demo fleet is seeded "now"; in the story it was racked before the history begins.
  await db.execute(sql`update nodes set created_at = ${new Date(windowStart.getTime() - 86_400_000)}
                       where created_at > ${windowStart}`);

  const plan = planHistory({ now: new Date(now), days, seed, profile: opts.profile ?? "demo" }).map((a) =>
    a.type === "launch" && opts.regionMap?.[a.spec.region]
      ? { ...a, spec: { ...a.spec, region: opts.regionMap[a.spec.region] as string } }
      : a,
  );
  const actionCount = plan.length;
  const ids = new Map<string, string>();
  const specs = new Map<string, Extract<PlannedAction, { type: "launch" }>>();
  const tickRnd = mulberry32(seed ^ 0x5eed);
  const ticks: number[] = [];
  const scheduler = systemCtx("scheduler");
  const reconciler = systemCtx("provider");
  const skipped: Record<string, number> = {};
  let steps = 0;
  let t = plan[0]?.at ?? now;
  let engineDueAt = t;
  let tickDue = false;
  let queuedRegions: string[] = [];

  // Each step: the reconciler if something of this organization fell due, the scheduler on a tick or after the
  // reconciler changed the fleet, then the people's actions of that moment.
  for (;;) {
    steps++;
    const at = new Date(t);
    const reconciled = t >= engineDueAt;
    if (reconciled) await reconcileInstances(reconciler, { now: at });
    if (reconciled || tickDue) {
      for (const regionCode of reconciled ? await queuedRegionsOf(opts.orgId) : queuedRegions) {
        await placeQueuedInstances(scheduler, { regionCode, now: at });
      }
    }
    let acted = false;
    while (plan.length > 0 && (plan[0] as PlannedAction).at <= t) {
      const action = plan.shift() as PlannedAction;
      const actor = actors[hashString(action.key) % actors.length] as UserActor;
      const outcome = await perform({ actor, now: () => new Date(action.at) }, org.slug, action, ids, specs);
      if (outcome === "defer") insertSorted(plan, { ...action, at: action.at + 120_000 });
      else if (outcome !== "done") skipped[outcome] = (skipped[outcome] ?? 0) + 1;
      else acted = true;
    }
    // The worker's scheduler runs every few seconds: new work (or freed GPUs) waits for its next tick.
    if (acted) ticks.push(t + 2_000 + Math.floor(tickRnd() * 10_000));
    const moment = await nextEngineMoment(opts.orgId, t, now, provider);
    engineDueAt = moment.at;
    queuedRegions = moment.queuedRegions;
    const nextTick = Math.min(...ticks.filter((x) => x > t));
    const next = Math.min(plan[0]?.at ?? Number.POSITIVE_INFINITY, nextTick, engineDueAt);
    tickDue = next === nextTick && queuedRegions.length > 0;
    for (let k = ticks.length - 1; k >= 0; k--) if ((ticks[k] as number) <= next) ticks.splice(k, 1);
    if (!Number.isFinite(next) || next > now) break;
    t = Math.max(next, t + 1);
  }
  await reconcileInstances(reconciler, { now: new Date(now) });
  for (const regionCode of await queuedRegionsOf(opts.orgId)) {
    await placeQueuedInstances(scheduler, { regionCode, now: new Date(now) });
  }
  const tEngine = performance.now();

  const metrics = await backfillMetrics({
    orgId: opts.orgId,
    now: new Date(now),
    windowStart,
    rawSampleHours: opts.rawSampleHours ?? 24,
    provider,
  });
  const summary = await db.execute<{ state: string; n: number }>(
    sql`select state, count(*)::int as n from instances where org_id = ${opts.orgId} group by state`,
  );
  const events = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from instance_events where org_id = ${opts.orgId}`,
  );
  const tEnd = performance.now();
  return {
    actions: actionCount,
    skipped,
    engineSteps: steps,
    instances: summary.rows.reduce((a, r) => a + Number(r.n), 0),
    events: Number(events.rows[0]?.n ?? 0),
    rollupRows: metrics.rollupRows,
    rawSamples: metrics.rawSamples,
    states: Object.fromEntries(summary.rows.map((r) => [r.state, Number(r.n)])),
    ms: {
      engine: Math.round(tEngine - t0),
      metrics: Math.round(tEnd - tEngine),
      total: Math.round(tEnd - t0),
    },
  };
}

function insertSorted(plan: PlannedAction[], a: PlannedAction) {
  const i = plan.findIndex((p) => p.at > a.at);
  if (i < 0) plan.push(a);
  else plan.splice(i, 0, a);
}

type LaunchAction = Extract<PlannedAction, { type: "launch" }>;
/** "done", "defer" (try again shortly), "moot" (nothing left to act on) or a refusal's error code. */
type Outcome = string;

/** One person's action through the public library, as the console would do it. */
async function perform(
  ctx: Ctx,
  slug: string,
  a: PlannedAction,
  ids: Map<string, string>,
  specs: Map<string, LaunchAction>,
): Promise<Outcome> {
  try {
    if (a.type === "launch") {
      specs.set(a.key, a);
      await launchAs(ctx, slug, a, ids);
      return "done";
    }
    const id = ids.get(a.key);
    if (!id) return "moot";
    const state = (
      await getDb().execute<{ state: string }>(sql`select state from instances where id = ${id}`)
    ).rows[0]?.state;
    if (a.type === "start") {
      const spec = specs.get(a.key);
      if (spec && state && ["failed", "terminated", "cancelled"].includes(state)) {
        // A notebook that failed or was torn down is replaced by a new one with the same settings.
        const again = { ...spec, simSeed: spec.simSeed + 1 };
        specs.set(a.key, again);
        await launchAs(ctx, slug, again, ids);
      } else if (state === "stopped" || state === "preempted") await start(ctx, slug, id);
      else return "moot";
    } else if (state === "provisioning" || state === "stopping") {
      return "defer"; // people wait for a transition to finish before acting again
    } else if (a.type === "stop") {
      if (state === "queued") await cancel(ctx, slug, id);
      else if (state === "running") await stop(ctx, slug, id);
      else return "moot";
    } else {
      if (state === "queued") await cancel(ctx, slug, id);
      else if (state && ["running", "stopped", "preempted", "preempting"].includes(state))
        await terminate(ctx, slug, id);
      else return "moot";
    }
    return "done";
  } catch (err) {
    // A refusal (quota, policy, a state that moved) is part of history too: the person did not get to act.
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}

async function launchAs(ctx: Ctx, slug: string, a: LaunchAction, ids: Map<string, string>) {
  const { instance } = await launch(ctx, slug, a.spec);
  ids.set(a.key, instance.id);
  // Launch draws a random simulator seed; the history is reproducible from its own seed instead.
  await getDb().execute(sql`update instances set sim_seed = ${a.simSeed} where id = ${instance.id}`);
}

async function queuedRegionsOf(orgId: string): Promise<string[]> {
  const res = await getDb().execute<{ region_code: string }>(
    sql`select distinct region_code from instances where org_id = ${orgId} and state = 'queued'`,
  );
  return res.rows.map((r) => r.region_code);
}

/**
 * The next moment after `t` when the engine has something to do for this organization (a state deadline, a
 * max-runtime stop, or a spot interruption the provider will report), and the regions where it has queued work.
 */
async function nextEngineMoment(
  orgId: string,
  t: number,
  end: number,
  provider: Provider,
): Promise<{ at: number; queuedRegions: string[] }> {
  const res = await getDb().execute<{ due: number | null; spot: number; queued: string[] | null }>(sql`
    select (extract(epoch from least(
        (select min(state_deadline) from instances where org_id = ${orgId}
           and state in ('provisioning', 'stopping', 'terminating', 'preempting') and state_deadline > ${new Date(t)}),
        (select min(started_at + make_interval(mins => max_runtime_minutes)) from instances
           where org_id = ${orgId} and state = 'running' and max_runtime_minutes is not null)
      )) * 1000)::float8 as due,
      (select count(*)::int from instances where org_id = ${orgId} and state = 'running'
         and pricing_model = 'spot') as spot,
      (select array_agg(distinct region_code) from instances where org_id = ${orgId} and state = 'queued') as queued`);
  const row = res.rows[0];
  let next = row?.due == null ? Number.POSITIVE_INFINITY : Math.max(Number(row.due), t + 1);
  if (Number(row?.spot ?? 0) > 0) {
    const spot = await loadProviderInstances(
      getDb(),
      sql`i.org_id = ${orgId} and i.state = 'running' and i.pricing_model = 'spot'`,
    );
    for (const inst of spot) {
      const at = provider.spotInterruptionIn(inst, new Date(t), new Date(Math.min(end, next)));
      if (at) next = Math.min(next, at.getTime());
    }
  }
  return { at: next, queuedRegions: row?.queued ?? [] };
}
