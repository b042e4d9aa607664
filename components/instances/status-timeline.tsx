import { useTranslations } from "next-intl";
import { RelativeTime } from "@/components/ui/relative-time";
import type { InstanceEventView } from "@/lib/provisioning";

/** Every state change of the instance, newest first: from → to, why, who, when. */
export function StatusTimeline({ events, now }: { events: InstanceEventView[]; now: string }) {
  const t = useTranslations("Instances");
  const newestFirst = [...events].reverse();
  return (
    <section
      aria-labelledby="timeline-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="timeline-heading" className="text-lg font-semibold">
        {t("timeline.title")}
      </h2>
      <ol className="mt-3 flex flex-col gap-3 border-l border-slate-300 pl-4 dark:border-slate-700">
        {newestFirst.map((e) => (
          <li key={e.id} className="text-sm">
            <p className="font-medium">
              {e.from
                ? t("timeline.transition", { from: t(`state.${e.from}`), to: t(`state.${e.to}`) })
                : t("timeline.created", { to: t(`state.${e.to}`) })}
            </p>
            <p className="text-slate-700 dark:text-slate-300">
              {e.reasonCode && t.has(`timeline.reasons.${e.reasonCode}`)
                ? t(`timeline.reasons.${e.reasonCode}`, e.reasonParams ?? {})
                : e.reason}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {t("timeline.by", { actor: e.actorEmail ?? t(`actor.${e.actorKind}`) })} ·{" "}
              <RelativeTime date={e.at} now={now} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
