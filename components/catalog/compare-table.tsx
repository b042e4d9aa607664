import Link from "next/link";
import type { ReactNode } from "react";
import { ScrollTable } from "@/components/ui/scroll-table";
import type { ComparedOffering } from "@/lib/catalog";
import { compareKeyOf, PRICING_MODELS } from "@/lib/catalog/schemas";
import { AvailabilitySparkline } from "./availability-sparkline";
import { LaunchAction } from "./launch-action";
import { type ExpectedWait, offeringDomId, useOfferingFormat } from "./offering-format";

type Props = {
  orgSlug: string;
  items: ComparedOffering[];
  waits: Record<string, ExpectedWait>;
  /** Link to this page without one offering. */
  removeHref: (o: ComparedOffering) => string;
};

const HOURS_PER_MONTH = 730;
const cell = "px-3 py-2 align-top";

/** Offerings as columns and every figure as a row, so one line reads across the choices. */
export function CompareTable({ orgSlug, items, waits, removeHref }: Props) {
  const f = useOfferingFormat();
  const { t } = f;
  const share = (o: ComparedOffering) => (o.migSlices ? o.migSlices / 7 : o.gpuCount);
  const spec = (v: number | null, key: "tflopsValue" | "bandwidthValue" | "tdpValue") =>
    v === null ? t("notPublished") : t(key, { value: f.num(v) });
  const lowest = (m: (typeof PRICING_MODELS)[number]) =>
    Math.min(...items.map((o) => (o.prices[m] ?? Number.POSITIVE_INFINITY) / share(o)));
  const rows: Array<[string, (o: ComparedOffering) => ReactNode]> = [
    [t("columns.size"), f.size],
    [t("gpuMemory"), (o) => t("gibValue", { value: o.gpuMemoryGib })],
    [t("tflops"), (o) => spec(o.bf16TflopsPerGpu, "tflopsValue")],
    [t("bandwidth"), (o) => spec(o.memoryBandwidthGbps, "bandwidthValue")],
    [t("tdp"), (o) => spec(o.tdpWatts, "tdpValue")],
    [t("host"), (o) => t("hostValue", { vcpus: o.vcpus, ram: o.ramGib, disk: o.localDiskGib })],
    [
      t("columns.region"),
      (o) => t("regionLine", { region: o.regionName, code: o.regionCode, jurisdiction: o.jurisdiction }),
    ],
    ...PRICING_MODELS.map((m): [string, (o: ComparedOffering) => ReactNode] => [
      t(`pricing.${m}`),
      (o) => {
        const v = o.prices[m];
        if (v === null) return t("notOffered");
        const perGpu = v / share(o);
        return (
          <>
            <span className="font-semibold">{t("perHour", { price: f.usd(v) })}</span>
            {items.length > 1 && perGpu === lowest(m) ? (
              <span className="ml-1 text-xs">{t("lowestPerGpu")}</span>
            ) : null}
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              {t("perGpu", { price: f.usd(perGpu) })}
              {o.marketMedianPerGpu ? ` · ${f.market(perGpu, o.marketMedianPerGpu)}` : null}
            </span>
          </>
        );
      },
    ]),
    ...(["reserved_1m", "reserved_1y"] as const).map((m): [string, (o: ComparedOffering) => ReactNode] => [
      t("savings", { term: t(`pricing.${m}`) }),
      (o) => {
        const od = o.prices.on_demand;
        const r = o.prices[m];
        if (od === null || r === null) return t("notOffered");
        return t("savingsValue", {
          pct: Math.round((1 - r / od) * 100),
          month: f.usd((od - r) * HOURS_PER_MONTH),
        });
      },
    ]),
    [
      t("columns.available"),
      (o) => (o.available > 0 ? t("availableCount", { count: o.available }) : t("noCapacity")),
    ],
    [t("historyHeading"), (o) => <AvailabilitySparkline points={o.history} />],
    [t("columns.wait"), (o) => f.wait(o, waits[`${o.regionCode}/${o.gpuModelId}`] ?? null, true)],
    [t("energyPerHour"), (o) => (o.energyEstimatedTdp ? `${f.energy(o)} (${t("tdpAssumed")})` : f.energy(o))],
    [t("co2PerHour"), f.co2],
  ];
  return (
    <ScrollTable captionId="compare-caption" caption={t("compareCaption")}>
      <thead className="bg-slate-50 dark:bg-slate-900">
        <tr>
          <td className={cell} />
          {items.map((o) => (
            <th key={compareKeyOf(o)} scope="col" className={`${cell} min-w-48 text-left`}>
              <span className="block text-base font-semibold">{f.title(o)}</span>
              <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                {o.regionName} · <span className="font-mono">{o.instanceTypeId}</span>
              </span>
              <span className="mt-2 flex flex-wrap items-center gap-3 font-normal">
                <LaunchAction
                  offering={o}
                  orgSlug={orgSlug}
                  pricing="on_demand"
                  title={f.title(o)}
                  reasonId={`${offeringDomId(o)}-compare-reason`}
                />
                <Link
                  href={removeHref(o)}
                  aria-label={t("compareRemove", { offering: f.title(o), region: o.regionName })}
                  className="text-sm underline focus-visible:outline-2 focus-visible:outline-orange-600"
                >
                  {t("compareRemoveShort")}
                </Link>
              </span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-t border-slate-200 dark:border-slate-800">
            <th scope="row" className={`${cell} text-left font-medium text-slate-700 dark:text-slate-300`}>
              {label}
            </th>
            {items.map((o) => (
              <td key={compareKeyOf(o)} className={cell}>
                {value(o)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
