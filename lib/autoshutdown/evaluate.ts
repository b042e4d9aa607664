import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Ctx, checkpoint, nowOf, type PolicyStop } from "@/lib/core";
import { readDb } from "@/lib/db/client";
import { type AutoShutdown, instances, shutdownWarnings } from "@/lib/db/schema";
import { actOnWarning, type RunningInstance, type ShutdownWarning, warningActsAt, warnShutdown } from "./act";
import { idleObservations } from "./observe";
import { orgPolicies, pickPolicy } from "./policies";
import { idleDue, maxRuntimeDue, type RuleDue, scheduleDue } from "./rules";
import { withDefaults } from "./validate";

export type EvaluateAutoShutdownResult = {
  instances: number;
  warned: number;
  stopped: number;
  cancelled: number;
  failed: number;
};

/**
 * The auto-shutdown pass the worker runs every 30 s. For each running instance and each of its rules (idle
 * from recent samples, max runtime from when it started, schedule from its cron in its time zone): warn when
 * the due time is within the policy's warning lead, cancel a warning whose reason went away (busy again,
 * stopped, settings changed), and stop (through opts.stop, see PolicyStop) when a warning's time (or its
 * snooze) has come.
 */
export async function evaluateAutoShutdown(
  ctx: Ctx,
  opts: { now?: Date; orgIds?: string[]; stop: PolicyStop },
): Promise<EvaluateAutoShutdownResult> {
  const now = opts.now ?? nowOf(ctx);
  const exec = readDb(ctx);
  const result: EvaluateAutoShutdownResult = { instances: 0, warned: 0, stopped: 0, cancelled: 0, failed: 0 };
  const orgFilter = opts.orgIds ? sql`and i.org_id = any(${`{${opts.orgIds.join(",")}}`}::uuid[])` : sql``;
  const gone = await exec.execute(sql`
    update shutdown_warnings w set cancelled_at = ${now}
    from instances i
    where i.id = w.instance_id and w.acted_at is null and w.cancelled_at is null
      and (i.state <> 'running' or i.started_at > w.warned_at) ${orgFilter}`);
  result.cancelled += gone.rowCount ?? 0;

  const running = await exec
    .select()
    .from(instances)
    .where(
      and(eq(instances.state, "running"), opts.orgIds ? inArray(instances.orgId, opts.orgIds) : undefined),
    );
  if (running.length === 0) return result;
  const policies = await orgPolicies(exec, [...new Set(running.map((i) => i.orgId))]);
  const plans = running.map((i) => {
    const policy = pickPolicy(policies, i.projectId, i.gpuModelId);
    return { inst: i, policy, settings: withDefaults(i.autoShutdown, policy, i.kind) };
  });
  const startedAt = (i: (typeof running)[number]) => i.startedAt ?? i.updatedAt;
  const observations = await idleObservations(
    exec,
    plans.flatMap(({ inst, settings }) =>
      settings.idle
        ? [
            {
              id: inst.id,
              pct: settings.idle.utilizationBelowPct,
              minutes: settings.idle.minutes,
              startedAt: startedAt(inst),
            },
          ]
        : [],
    ),
    now,
  );
  const open = await exec
    .select()
    .from(shutdownWarnings)
    .where(
      and(
        inArray(
          shutdownWarnings.instanceId,
          running.map((i) => i.id),
        ),
        isNull(shutdownWarnings.actedAt),
        isNull(shutdownWarnings.cancelledAt),
      ),
    );

  // Everything above was read without locks: a snooze or a settings change may commit from here on.
  await checkpoint("autoshutdown.pass.read");
  for (const { inst, policy, settings } of plans) {
    result.instances++;
    const ri: RunningInstance = {
      id: inst.id,
      orgId: inst.orgId,
      name: inst.name,
      createdBy: inst.createdBy,
    };
    const dues = dueRules(settings, startedAt(inst), observations.get(inst.id), now);
    const mine = open.filter((w) => w.instanceId === inst.id);
    try {
      for (const w of mine) {
        const verdict = judge(w, settings, dues, observations.get(inst.id));
        if (verdict === "cancel") {
          await exec.update(shutdownWarnings).set({ cancelledAt: now }).where(eq(shutdownWarnings.id, w.id));
          result.cancelled++;
        } else if (verdict === "valid" && now >= warningActsAt(w)) {
          if (
            await actOnWarning(ctx.tx, {
              warning: w,
              inst: ri,
              detail: detailOf(w.rule, settings),
              now,
              stop: opts.stop,
            })
          ) {
            result.stopped++;
            break;
          }
        }
      }
      for (const due of dues) {
        if (mine.some((w) => w.rule === due.rule)) continue;
        if (now.getTime() < due.dueAt.getTime() - policy.warningMinutes * 60_000) continue;
        if (
          await warnShutdown(ctx.tx, { inst: ri, due, detail: detailOf(due.rule, settings), policy, now })
        ) {
          result.warned++;
        }
      }
    } catch (err) {
      result.failed++;
      console.error(`[autoshutdown] instance ${inst.id} failed; the next pass retries`, err);
    }
  }
  return result;
}

function dueRules(
  settings: AutoShutdown,
  runningSince: Date,
  obs: Parameters<typeof idleDue>[1] | undefined,
  now: Date,
): RuleDue[] {
  const dues: RuleDue[] = [];
  if (settings.idle && obs) {
    const d = idleDue(settings.idle, obs, now);
    if (d) dues.push(d);
  }
  if (settings.maxRuntimeMinutes) dues.push(maxRuntimeDue(settings.maxRuntimeMinutes, runningSince));
  if (settings.schedule) {
    const d = scheduleDue(settings.schedule, runningSince);
    if (d) dues.push(d);
  }
  return dues;
}

/**
 * Is an open warning still right? Idle: cancelled by any busy sample after the idle stretch it was issued
 * for, kept (not acted on) while telemetry is stale. Max runtime and schedule: cancelled when the rule or
 * its due time changed.
 */
function judge(
  w: ShutdownWarning,
  settings: AutoShutdown,
  dues: RuleDue[],
  obs: Parameters<typeof idleDue>[1] | undefined,
): "valid" | "cancel" | "wait" {
  if (w.rule === "idle") {
    if (!settings.idle) return "cancel";
    const idleSince = w.dueAt.getTime() - settings.idle.minutes * 60_000;
    if (obs?.lastBusy && obs.lastBusy.getTime() > idleSince) return "cancel";
    return dues.some((d) => d.rule === "idle") ? "valid" : "wait";
  }
  return dues.some((d) => d.rule === w.rule && d.dueAt.getTime() === w.dueAt.getTime()) ? "valid" : "cancel";
}

function detailOf(rule: string, s: AutoShutdown): Record<string, string | number> {
  if (rule === "idle" && s.idle) return { minutes: s.idle.minutes, pct: s.idle.utilizationBelowPct };
  if (rule === "max_runtime" && s.maxRuntimeMinutes) return { minutes: s.maxRuntimeMinutes };
  if (rule === "schedule" && s.schedule) return { cron: s.schedule.cron, timeZone: s.schedule.timeZone };
  return {};
}
