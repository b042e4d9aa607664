import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { InstanceDetailView } from "@/lib/provisioning";
import { ConnectionDetails } from "./connection-details";
import { CostEstimate } from "./cost-estimate";
import { gpuLabel } from "./labels";
import { QueuePanel } from "./queue-panel";
import { StateBadge } from "./state-badge";
import { StatusTimeline } from "./status-timeline";

/** Queue reasons a quota request could fix (lib/quotas reasonAsksForQuota; this also renders in the browser). */
const ASKS_FOR_QUOTA = ["over_nominal_nothing_to_borrow", "over_borrowing_limit"];

/**
 * The instance page's view of one answer: state, reasons, details, queue, connection, cost and timeline, with
 * the lifecycle buttons passed in. No "use client" of its own: the server renders it with the page's answer
 * (InstanceLive's stand-in until its code arrives) and InstanceLive renders it in the browser with each newer
 * answer, so both are the same markup.
 */
export function InstanceDetail({
  org,
  data,
  canConnect,
  actions,
}: {
  org: string;
  data: InstanceDetailView;
  /** Members and up: a viewer is never given connection details, so the page has no Connection section for them. */
  canConnect: boolean;
  actions: ReactNode;
}) {
  const t = useTranslations("Instances");
  const why = useTranslations("QueueReasons");
  const format = useFormatter();
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{data.name}</h1>
          <span
            role="status"
            aria-live="polite"
            aria-label={t("stateLabel", { state: t(`state.${data.state}`) })}
          >
            <StateBadge state={data.state} />
          </span>
          {data.borrowed ? (
            <span className="rounded border border-amber-600 px-2 py-0.5 text-xs font-medium text-amber-900 dark:text-amber-200">
              {why("borrowedBadge")}
            </span>
          ) : null}
        </div>
        {data.borrowed ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">{why("borrowedMeans")}</p>
        ) : null}
        {data.queueReason ? (
          <p className="text-sm text-slate-800 dark:text-slate-200">
            <span className="font-medium">{why("label")} </span>
            {why(data.queueReason.code, data.queueReason.params)}
            {ASKS_FOR_QUOTA.includes(data.queueReason.code) ? (
              <>
                {" "}
                <Link
                  href={`/${org}/quotas?${new URLSearchParams({
                    model: data.gpuModelName,
                    region: data.regionCode,
                    gpus: String(
                      Number(data.queueReason.params.inUse ?? 0) +
                        Number(data.queueReason.params.requested ?? 0),
                    ),
                  })}#request-heading`}
                  className="font-medium text-orange-700 underline dark:text-orange-400"
                >
                  {why("requestQuota")}
                </Link>
              </>
            ) : null}
          </p>
        ) : null}
        {data.stateReason ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">{data.stateReason}</p>
        ) : null}
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
          <div>
            <dt className="inline font-medium">{t("col.kind")}: </dt>
            <dd className="inline">{t(`kind.${data.kind}`)}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("col.gpu")}: </dt>
            <dd className="inline">{gpuLabel(data, t)}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("col.region")}: </dt>
            <dd className="inline">{data.regionCode}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("col.pricing")}: </dt>
            <dd className="inline">{t(`pricing.${data.pricingModel}`)}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("col.project")}: </dt>
            <dd className="inline">{data.projectName}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("detail.image")}: </dt>
            <dd className="inline">{data.imageId}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("detail.disk")}: </dt>
            <dd className="inline">{t("detail.diskValue", { gib: format.number(data.diskGib) })}</dd>
          </div>
          {data.nodeName ? (
            <div>
              <dt className="inline font-medium">{t("detail.node")}: </dt>
              <dd className="inline">{data.nodeName}</dd>
            </div>
          ) : null}
        </dl>
        {actions}
      </header>
      {data.queue ? <QueuePanel org={org} queue={data.queue} /> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {canConnect ? <ConnectionDetails connection={data.connection} /> : null}
        <CostEstimate cost={data.cost} />
      </div>
      <StatusTimeline events={data.events} now={data.now} />
    </div>
  );
}
