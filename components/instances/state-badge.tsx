import { useTranslations } from "next-intl";
import type { InstanceStateName } from "@/lib/provisioning";

type Tone = "wait" | "busy" | "ok" | "idle" | "bad";

const TONE: Record<InstanceStateName, Tone> = {
  requested: "wait",
  queued: "wait",
  provisioning: "busy",
  running: "ok",
  stopping: "busy",
  stopped: "idle",
  preempting: "busy",
  preempted: "idle",
  terminating: "busy",
  terminated: "idle",
  rejected: "bad",
  cancelled: "idle",
  failed: "bad",
};

const TONE_CLASS: Record<Tone, string> = {
  wait: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200",
  busy: "border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-200",
  ok: "border-green-300 bg-green-50 text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-200",
  idle: "border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200",
  bad: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-200",
};

/** Each tone has its own shape, so the state reads without colour (and the text always says it). */
function ToneIcon({ tone }: { tone: Tone }) {
  const common = {
    width: 12,
    height: 12,
    viewBox: "0 0 12 12",
    focusable: false,
    className: "shrink-0",
  } as const;
  switch (tone) {
    case "wait":
      return (
        <svg aria-hidden="true" {...common}>
          <circle cx="6" cy="6" r="5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M6 3v3l2 1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      );
    case "busy":
      return (
        <svg aria-hidden="true" {...common} className="shrink-0 motion-safe:animate-spin">
          <path d="M6 1a5 5 0 1 1-5 5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      );
    case "ok":
      return (
        <svg aria-hidden="true" {...common}>
          <path d="M3 1.5v9l7.5-4.5z" fill="currentColor" />
        </svg>
      );
    case "idle":
      return (
        <svg aria-hidden="true" {...common}>
          <rect x="2" y="2" width="8" height="8" fill="currentColor" />
        </svg>
      );
    case "bad":
      return (
        <svg aria-hidden="true" {...common}>
          <path d="M6 1 11 10.5H1z" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M6 4.5v3M6 8.5v1" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      );
  }
}

/** An instance state as an icon and its name; the colour only repeats what both already say. */
export function StateBadge({ state }: { state: InstanceStateName }) {
  const t = useTranslations("Instances.state");
  const tone = TONE[state];
  return (
    <span
      data-state={state}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium ${TONE_CLASS[tone]}`}
    >
      <ToneIcon tone={tone} />
      {t(state)}
    </span>
  );
}
