"use client";

import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { useLiveQuery } from "@/components/ui/live-query";
import { fetchJson, instancesApi } from "./labels";
import { LogsFrame, LogsLoading } from "./logs-frame";

type Logs = { lines: Array<{ at: string; stream: "stdout" | "stderr"; text: string }>; live: boolean };

/** The container's latest log lines, refreshed while it runs; stderr is marked in text, not only in colour. */
export function LogsPanel({ org, id }: { org: string; id: string }) {
  const t = useTranslations("Instances.logs");
  const { data, isPending, error } = useLiveQuery({
    key: ["instance-logs", org, id],
    fetch: () => fetchJson<Logs>(`${instancesApi(org)}/${id}/logs?limit=200`),
    every: (logs) => (logs && !logs.live ? 30_000 : 3_000),
  });
  return (
    <LogsFrame>
      {isPending ? (
        <LogsLoading />
      ) : error ? (
        <Alert>{t("error", { detail: error.message })}</Alert>
      ) : !data || data.lines.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("empty")}</p>
      ) : (
        <>
          <p className="text-xs text-slate-600 dark:text-slate-400">{data.live ? t("live") : t("frozen")}</p>
          <pre
            role="log"
            aria-label={t("title")}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be focusable to scroll by keyboard
            tabIndex={0}
            className="mt-2 max-h-80 overflow-auto rounded bg-slate-950 p-3 font-mono text-xs text-slate-100"
          >
            {data.lines.map((l, i) => (
              <div
                key={`${l.at}-${l.stream}-${l.text}-${i}`}
                className={l.stream === "stderr" ? "text-amber-300" : undefined}
              >
                <span className="text-slate-400">{l.at.slice(11, 19)}</span>{" "}
                {l.stream === "stderr" ? <span className="text-amber-300">[stderr] </span> : null}
                {l.text}
              </div>
            ))}
          </pre>
        </>
      )}
    </LogsFrame>
  );
}
