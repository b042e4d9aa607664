import { Cron } from "croner";
import type { AutoShutdown } from "@/lib/db/schema";

export type ShutdownRule = "idle" | "max_runtime" | "schedule";
export type RuleDue = { rule: ShutdownRule; dueAt: Date; reason: string };

/** Samples older than this say nothing about now: no verdict on idleness without fresh telemetry. */
export const STALE_TELEMETRY_MS = 2 * 60_000;

/** What the metric samples since the instance started say, for one idle threshold. */
export type IdleObservation = {
  /** Latest sample time at which some GPU was at or above the threshold. */
  lastBusy: Date | null;
  firstSample: Date | null;
  lastSample: Date | null;
};

const floorSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

export function idleReason(idle: { minutes: number; utilizationBelowPct: number }): string {
  return `auto-shutdown: idle for ${idle.minutes} min under ${idle.utilizationBelowPct} % GPU`;
}

/**
 * Idle: every GPU under the threshold since the last busy sample (or since the first sample seen) for the
 * configured minutes. Null without fresh samples — a telemetry gap is not evidence of idleness.
 */
export function idleDue(
  idle: NonNullable<AutoShutdown["idle"]>,
  obs: IdleObservation,
  now: Date,
): (RuleDue & { idleSince: Date }) | null {
  if (!obs.lastSample || now.getTime() - obs.lastSample.getTime() > STALE_TELEMETRY_MS) return null;
  const since = obs.lastBusy ?? obs.firstSample;
  if (!since) return null;
  return {
    rule: "idle",
    idleSince: since,
    dueAt: floorSecond(since.getTime() + idle.minutes * 60_000),
    reason: idleReason(idle),
  };
}

export function maxRuntimeDue(minutes: number, runningSince: Date): RuleDue {
  return {
    rule: "max_runtime",
    dueAt: floorSecond(runningSince.getTime() + minutes * 60_000),
    reason: `auto-shutdown: max runtime of ${minutes} min reached`,
  };
}

/**
 * The schedule's first fire time after the instance started, in the schedule's time zone (croner handles
 * daylight-saving changes: "0 20 * * *" in Europe/Madrid is 19:00 UTC in winter and 18:00 UTC in summer).
 */
export function scheduleDue(
  schedule: NonNullable<AutoShutdown["schedule"]>,
  runningSince: Date,
): RuleDue | null {
  const next = new Cron(schedule.cron, { timezone: schedule.timeZone, paused: true }).nextRun(runningSince);
  if (!next) return null;
  return {
    rule: "schedule",
    dueAt: floorSecond(next.getTime()),
    reason: `auto-shutdown: scheduled stop (${schedule.cron}, ${schedule.timeZone})`,
  };
}
