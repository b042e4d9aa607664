import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/**
 * The logs section's frame and its loading line: the same while the panel's code and its first answer load
 * (no "use client": the page renders them on the server as LazyLogsPanel's fallback, LogsPanel in the browser).
 */
export function LogsFrame({ children }: { children: ReactNode }) {
  const t = useTranslations("Instances.logs");
  return (
    <section
      aria-labelledby="logs-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="logs-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      {children}
    </section>
  );
}

export function LogsLoading() {
  const t = useTranslations("Instances.logs");
  return (
    <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
      {t("loading")}
    </p>
  );
}
