import { getFormatter, getNow, getTranslations } from "next-intl/server";
import { requireOrgAccess, roleAtLeast } from "@/lib/access";
import { requireUserCtx } from "@/lib/auth/session";
import { autoShutdownStatus } from "@/lib/autoshutdown";
import { SnoozeForm } from "./snooze-form";

type SnoozeAction = Parameters<typeof SnoozeForm>[0]["action"];

/**
 * On the instance page while an automatic stop is pending: when it will happen and why, and (for members,
 * where the policy allows) a control to postpone it.
 */
export async function ShutdownWarning({
  org,
  instanceId,
  snooze,
}: {
  org: string;
  instanceId: string;
  /** The snooze server action bound to this instance (the page owns its actions). */
  snooze: SnoozeAction;
}) {
  const ctx = await requireUserCtx();
  const [{ policy, pending, settings }, { role }] = await Promise.all([
    autoShutdownStatus(ctx, org, instanceId),
    requireOrgAccess(ctx, org),
  ]);
  if (pending.length === 0) return null;
  const [t, tn, format, now] = await Promise.all([
    getTranslations("Costs.shutdown"),
    getTranslations("CostNotices"),
    getFormatter(),
    getNow(),
  ]);
  // The rule in the reader's words (the stored reason is the English text of the instance timeline).
  const ruleText = (p: (typeof pending)[number]) => {
    if (p.rule === "idle" && settings.idle) {
      return tn("ruleIdle", { minutes: settings.idle.minutes, pct: settings.idle.utilizationBelowPct });
    }
    if (p.rule === "max_runtime" && settings.maxRuntimeMinutes) {
      return tn("ruleMaxRuntime", { minutes: settings.maxRuntimeMinutes });
    }
    if (p.rule === "schedule" && settings.schedule) {
      return tn("ruleSchedule", { cron: settings.schedule.cron, timeZone: settings.schedule.timeZone });
    }
    return p.reason;
  };
  const first = pending.reduce((a, b) => (b.stopsAt < a.stopsAt ? b : a));
  const canSnooze = pending.every((p) => p.canSnooze) && roleAtLeast(role, "member");
  return (
    <section
      aria-labelledby="shutdown-warning-heading"
      className="flex flex-col gap-2 rounded-lg border border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <h2 id="shutdown-warning-heading" className="font-semibold">
        <span aria-hidden="true">! </span>
        {t("heading")}
      </h2>
      <p className="text-sm">
        {t("when", {
          relative: format.relativeTime(first.stopsAt, now),
          time: format.dateTime(first.stopsAt, { dateStyle: "medium", timeStyle: "short" }),
        })}
      </p>
      <ul className="list-disc pl-5 text-sm">
        {pending.map((p) => (
          <li key={p.warningId}>
            {t(`rule.${p.rule}`)}: {ruleText(p)}
          </li>
        ))}
      </ul>
      {first.snoozeCount > 0 ? (
        <p className="text-xs">{t("snoozedTimes", { count: first.snoozeCount, max: policy.maxSnoozes })}</p>
      ) : null}
      {canSnooze ? (
        <SnoozeForm action={snooze} maxMinutes={policy.snoozeMinutesMax} />
      ) : (
        <p className="text-sm">{roleAtLeast(role, "member") ? t("noSnooze") : t("viewerNoSnooze")}</p>
      )}
    </section>
  );
}
