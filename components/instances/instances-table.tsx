"use client";

import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import { type ReactNode, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { useLiveQuery } from "@/components/ui/live-query";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ActionResult } from "@/lib/core";
import type { BulkStopResult, InstanceListView } from "@/lib/provisioning";
import { BulkStop, type BulkStopOutcome, BulkStopReport } from "./bulk-stop";
import { fetchJson, filterQuery, gpuLabel, instancesApi } from "./labels";
import { StateBadge } from "./state-badge";

type Filter = { project?: string; state?: string; region?: string; page?: number };

const CELL = "px-3 py-2 text-left align-middle";

/**
 * The instance list with live status: the server's first render is the initial data, then React Query polls
 * the list route handler every few seconds (faster is pointless: the scheduler and provider tick at seconds).
 */
export function InstancesTable({
  org,
  filter,
  initial,
  canAct,
  stopAction,
  empty,
}: {
  org: string;
  filter: Filter;
  initial: InstanceListView;
  canAct: boolean;
  stopAction: (input: { ids: string[] }) => Promise<ActionResult<BulkStopResult>>;
  /** What an empty list shows (InstancesEmpty, rendered on the server: no client code for it). */
  empty: ReactNode;
}) {
  const t = useTranslations("Instances");
  const format = useFormatter();
  const qs = filterQuery(filter);
  const live = useLiveQuery({
    key: ["instances", org, qs],
    fetch: () => fetchJson<InstanceListView>(`${instancesApi(org)}${qs ? `?${qs}` : ""}`),
    initialData: initial,
    every: 3_000,
  });
  const { error } = live;
  const data = live.data ?? initial;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<BulkStopOutcome | null>(null);
  const report = canAct ? <BulkStopReport outcome={outcome} /> : null;
  const stoppable = data.items.filter((i) => i.actions.includes("stop"));
  const chosen = stoppable.filter((i) => selected.has(i.id));
  const allChosen = stoppable.length > 0 && chosen.length === stoppable.length;

  function toggle(id: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  if (data.items.length === 0) {
    return (
      <div className="flex flex-col gap-3">
        {report}
        {empty}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      {canAct ? (
        <BulkStop
          org={org}
          chosen={chosen.map((i) => ({ id: i.id, name: i.name }))}
          stopAction={stopAction}
          onDone={(result) => {
            setOutcome(result);
            const stopped = new Set(result.stopped.map((r) => r.id));
            setSelected((prev) => new Set([...prev].filter((id) => !stopped.has(id))));
          }}
        />
      ) : null}
      {report}
      {error ? <Alert>{t("liveError", { detail: error.message })}</Alert> : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="min-w-full text-sm">
          <caption className="sr-only">{t("tableCaption", { total: data.total })}</caption>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
            <tr>
              {canAct ? (
                <th scope="col" className={CELL}>
                  <input
                    type="checkbox"
                    aria-label={t("selectAll")}
                    checked={allChosen}
                    disabled={stoppable.length === 0}
                    onChange={(e) =>
                      setSelected(e.target.checked ? new Set(stoppable.map((i) => i.id)) : new Set())
                    }
                    className="size-4 accent-orange-700"
                  />
                </th>
              ) : null}
              <th scope="col" className={CELL}>
                {t("col.name")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.kind")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.state")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.region")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.gpu")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.pricing")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.project")}
              </th>
              <th scope="col" className={CELL}>
                {t("col.age")}
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                {t("col.cost")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {data.items.map((i) => (
              <tr key={i.id}>
                {canAct ? (
                  <td className={CELL}>
                    <input
                      type="checkbox"
                      aria-label={t("select", { name: i.name })}
                      checked={selected.has(i.id) && i.actions.includes("stop")}
                      disabled={!i.actions.includes("stop")}
                      onChange={(e) => toggle(i.id, e.target.checked)}
                      className="size-4 accent-orange-700"
                    />
                  </td>
                ) : null}
                <td className={`${CELL} font-medium`}>
                  <Link
                    href={`/${org}/instances/${i.id}`}
                    className="text-orange-800 underline dark:text-orange-300"
                  >
                    {i.name}
                  </Link>
                </td>
                <td className={CELL}>{t(`kind.${i.kind}`)}</td>
                <td className={CELL}>
                  <StateBadge state={i.state} />
                </td>
                <td className={CELL}>{i.regionCode}</td>
                <td className={`${CELL} whitespace-nowrap`}>{gpuLabel(i, t)}</td>
                <td className={CELL}>{t(`pricing.${i.pricingModel}`)}</td>
                <td className={CELL}>{i.projectName}</td>
                <td className={CELL}>
                  <RelativeTime date={i.createdAt} now={data.now} />
                </td>
                <td className={`${CELL} text-right tabular-nums`}>
                  {i.costUsd === null
                    ? "—"
                    : format.number(i.costUsd, { style: "currency", currency: "USD" })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
