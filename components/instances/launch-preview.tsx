"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useLiveQuery } from "@/components/ui/live-query";
import type { LaunchPreviewView } from "@/lib/provisioning";
import { formatDuration } from "./duration";
import { fetchJson, instancesApi } from "./labels";
import type { PricingChoice } from "./launch-form";
import { PreviewFrame } from "./launch-preview-frame";

/**
 * Price, quota left and expected wait for the offering being chosen, refreshed as the form changes. It only
 * informs: the launch itself re-checks everything in one transaction.
 */
export function LaunchPreview({
  org,
  instanceType,
  region,
  pricing,
}: {
  org: string;
  instanceType: string;
  region: string;
  pricing: PricingChoice;
}) {
  const t = useTranslations("Instances.launch.preview");
  const tAll = useTranslations("Instances");
  const format = useFormatter();
  const enabled = Boolean(instanceType && region);
  const { data, isFetching, error } = useLiveQuery({
    key: ["launch-preview", org, instanceType, region],
    fetch: () =>
      fetchJson<LaunchPreviewView>(
        `${instancesApi(org)}/launch-preview?${new URLSearchParams({ instanceType, region })}`,
      ),
    enabled,
    keepPrevious: true,
    every: 15_000,
  });
  const usd = (n: number) => format.number(n, { style: "currency", currency: "USD" });
  const price =
    data &&
    (pricing === "reserved" ? (data.prices.reserved_1y ?? data.prices.reserved_1m) : data.prices[pricing]);
  const overQuota = data ? data.gpusNeeded > data.quota.leftGpus : false;

  function waitText(): string {
    const w = data?.expectedWait;
    if (!data || !w) return t("waitUnknown");
    if (w.method === "no_capacity") return t("waitNoCapacity");
    if (w.etaSeconds === null) return t("waitUnknownAhead", { ahead: w.ahead });
    if (w.etaSeconds === 0) return t("waitNone");
    const eta = formatDuration(w.etaSeconds, tAll);
    return w.method === "history"
      ? t("waitHistory", { eta, ahead: w.ahead })
      : t("waitValue", { eta, ahead: w.ahead });
  }

  return (
    <PreviewFrame busy={isFetching}>
      {!enabled ? (
        <p>{t("choose")}</p>
      ) : error ? (
        <p className="text-red-700 dark:text-red-400">{t("error", { detail: error.message })}</p>
      ) : !data ? (
        <p>{t("loading")}</p>
      ) : (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="font-medium">{t("price")}</dt>
          <dd>
            {price == null
              ? t("notOffered", {
                  pricing: tAll(`pricing.${pricing === "reserved" ? "reserved_1y" : pricing}`),
                })
              : tAll("price.perHour", { price: usd(price) })}
          </dd>
          <dt className="font-medium">{t("quota")}</dt>
          <dd>
            {t("quotaValue", {
              left: format.number(data.quota.leftGpus),
              limit: format.number(data.quota.limitGpus),
              model: data.gpuModelName,
              region: data.regionCode,
            })}
            {overQuota ? " " : null}
            {overQuota ? (
              <span className="font-medium text-red-700 dark:text-red-400">
                {t("overQuota", { needed: format.number(data.gpusNeeded) })}
              </span>
            ) : null}
            {!overQuota && data.quota.borrowedGpus > 0 ? (
              <p className="mt-1 text-xs">
                {t("split", {
                  guaranteed: format.number(data.quota.guaranteedGpus),
                  borrowed: format.number(data.quota.borrowedGpus),
                })}
              </p>
            ) : null}
          </dd>
          <dt className="font-medium">{t("wait")}</dt>
          <dd>{waitText()}</dd>
        </dl>
      )}
    </PreviewFrame>
  );
}
