import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import { waitParts } from "@/components/charts/wait-duration";
import type { Offering } from "@/lib/catalog";
import { PRICING_MODELS, type PricingModel } from "@/lib/catalog/schemas";

export type ExpectedWait = { p50Seconds: number; samples: number };

type Props = {
  offering: Offering;
  orgSlug: string;
  pricing: PricingModel;
  expectedWait: ExpectedWait | null;
};

/** One instance type in one region: specs, prices in force, live availability and the launch action. */
export function OfferingCard({ offering: o, orgSlug, pricing, expectedWait }: Props) {
  const t = useTranslations("Catalog");
  const format = useFormatter();
  const usd = (v: number) =>
    format.number(v, {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
  const id = `offering-${o.instanceTypeId}-${o.regionCode}`.replace(/[^a-zA-Z0-9-]/g, "-");
  const title = o.migProfile
    ? t("offeringTitleMig", { gpu: o.gpuModelName, profile: o.migProfile })
    : t("offeringTitle", { gpu: o.gpuModelName, count: o.gpuCount });
  const num = (v: number) => format.number(v, { maximumFractionDigits: 1 });
  const spec = (value: number | null, key: "tflopsValue" | "bandwidthValue" | "tdpValue") =>
    value === null ? t("notPublished") : t(key, { value: num(value) });
  const launchHref = `/${orgSlug}/instances/new?${new URLSearchParams({
    instanceType: o.instanceTypeId,
    region: o.regionCode,
    pricing,
  })}`;
  return (
    <article
      aria-labelledby={`${id}-title`}
      className={`flex h-full flex-col gap-3 rounded-lg border p-4 ${
        o.allowed
          ? "border-slate-200 dark:border-slate-800"
          : "border-dashed border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900"
      }`}
    >
      <header>
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {title}{" "}
          <span className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">
            {o.instanceTypeId}
          </span>
        </h3>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("regionLine", { region: o.regionName, code: o.regionCode, jurisdiction: o.jurisdiction })}
        </p>
        {o.migSlices ? (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t("migShare", { slices: o.migSlices })}
          </p>
        ) : null}
      </header>
      <dl aria-label={t("specs")} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">{t("gpuMemory")}</dt>
        <dd>{t("gibValue", { value: o.gpuMemoryGib })}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("tflops")}</dt>
        <dd>{spec(o.bf16TflopsPerGpu, "tflopsValue")}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("bandwidth")}</dt>
        <dd>{spec(o.memoryBandwidthGbps, "bandwidthValue")}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("tdp")}</dt>
        <dd>{spec(o.tdpWatts, "tdpValue")}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t("host")}</dt>
        <dd>{t("hostValue", { vcpus: o.vcpus, ram: o.ramGib, disk: o.localDiskGib })}</dd>
      </dl>
      <dl aria-label={t("prices")} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        {PRICING_MODELS.map((m) => {
          const v = o.prices[m];
          const selected = m === pricing;
          return (
            <div key={m} className={`contents ${selected ? "font-semibold" : ""}`}>
              <dt className={selected ? "" : "text-slate-600 dark:text-slate-400"}>
                {t(`pricing.${m}`)}{" "}
                {selected ? <span className="text-xs">{t("selectedPricing")}</span> : null}
              </dt>
              <dd>{v === null ? t("notOffered") : t("perHour", { price: usd(v) })}</dd>
            </div>
          );
        })}
      </dl>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {t("perGpu", { price: usd(o.pricePerGpu) })}
      </p>
      <p className="text-sm font-medium">
        {o.available > 0 ? (
          <span className="text-green-800 dark:text-green-300">
            <span aria-hidden="true">● </span>
            {t("availableCount", { count: o.available })}
          </span>
        ) : (
          <span className="text-amber-800 dark:text-amber-300">
            <span aria-hidden="true">◌ </span>
            {t("noCapacity")}
          </span>
        )}
      </p>
      <p className="text-xs text-slate-700 dark:text-slate-300">
        {o.available > 0
          ? t("expectedWaitNow")
          : expectedWait
            ? t("expectedWait", {
                value: format.number(waitParts(expectedWait.p50Seconds).value),
                unit: t(`waitUnits.${waitParts(expectedWait.p50Seconds).unit}`),
                samples: expectedWait.samples,
              })
            : t("expectedWaitUnknown")}
      </p>
      <div className="mt-auto">
        {o.allowed ? (
          <Link
            href={launchHref}
            aria-label={t("launchLabel", {
              type: title,
              region: o.regionName,
              pricing: t(`pricing.${pricing}`),
            })}
            className="inline-flex rounded-md bg-orange-700 px-3 py-2 text-sm font-medium text-white hover:bg-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
          >
            {t("launch")}
          </Link>
        ) : (
          <div className="flex flex-col gap-1">
            <button
              type="button"
              disabled
              aria-describedby={`${id}-reason`}
              className="w-fit cursor-not-allowed rounded-md bg-slate-200 px-3 py-2 text-sm font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400"
            >
              {t("launch")}
            </button>
            <p id={`${id}-reason`} className="text-sm text-slate-700 dark:text-slate-300">
              {t("disallowed", {
                jurisdictions: (o.disallowedReason?.allowedJurisdictions ?? []).join(", "),
              })}
            </p>
          </div>
        )}
      </div>
    </article>
  );
}
