import type { Offering } from "@/lib/catalog";
import { compareKeyOf, PRICING_MODELS, type PricingModel } from "@/lib/catalog/schemas";
import { CompareCheckbox } from "./compare-checkbox";
import { LaunchAction } from "./launch-action";
import { type ExpectedWait, offeringDomId, useOfferingFormat } from "./offering-format";

type Props = {
  offering: Offering;
  orgSlug: string;
  pricing: PricingModel;
  expectedWait: ExpectedWait | null;
};

/**
 * One instance type in one region as a card — the catalog's narrow-screen view (wide screens get the table):
 * specs, prices in force, live availability, the compare checkbox and the launch action.
 */
export function OfferingCard({ offering: o, orgSlug, pricing, expectedWait }: Props) {
  const { t, usd, num, title: titleOf, wait, market, energy, co2 } = useOfferingFormat();
  const id = `${offeringDomId(o)}-card`;
  const title = titleOf(o);
  const spec = (value: number | null, key: "tflopsValue" | "bandwidthValue" | "tdpValue") =>
    value === null ? t("notPublished") : t(key, { value: num(value) });
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
        {o.marketMedianPerGpu ? ` · ${market(o.pricePerGpu, o.marketMedianPerGpu)}` : null}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {t("energyLine", { energy: energy(o), co2: co2(o) })}
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
      <p className="text-xs text-slate-700 dark:text-slate-300">{wait(o, expectedWait, true)}</p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3">
        <LaunchAction
          offering={o}
          orgSlug={orgSlug}
          pricing={pricing}
          title={title}
          reasonId={`${id}-reason`}
        />
        <CompareCheckbox
          value={compareKeyOf(o)}
          label={t("compareLabel", { offering: title, region: o.regionName })}
        />
      </div>
    </article>
  );
}
