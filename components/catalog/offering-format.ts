import { useFormatter, useTranslations } from "next-intl";
import { waitParts } from "@/components/charts/wait-duration";
import type { Offering } from "@/lib/catalog";

export type ExpectedWait = { p50Seconds: number; samples: number };

/** DOM id for an offering (instance type ids hold dots). */
export const offeringDomId = (o: Pick<Offering, "instanceTypeId" | "regionCode">) =>
  `offering-${o.instanceTypeId}-${o.regionCode}`.replace(/[^a-zA-Z0-9-]/g, "-");

/** The words and numbers every catalog view (table, cards, compare) shows for an offering, worded once. */
export function useOfferingFormat() {
  const t = useTranslations("Catalog");
  const format = useFormatter();
  const usd = (v: number) =>
    format.number(v, {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
  const usdFine = (v: number) =>
    format.number(v, {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 4,
      maximumFractionDigits: 4,
    });
  const num = (v: number, digits = 1) => format.number(v, { maximumFractionDigits: digits });
  const title = (o: Offering) =>
    o.migProfile
      ? t("offeringTitleMig", { gpu: o.gpuModelName, profile: o.migProfile })
      : t("offeringTitle", { gpu: o.gpuModelName, count: o.gpuCount });
  const size = (o: Offering) =>
    o.migSlices
      ? t("sizeMig", { profile: o.migProfile ?? "", slices: o.migSlices })
      : t("gpuCountOption", { count: o.gpuCount });
  /** Short wait wording for a table cell; `long` for the card's sentence. */
  const wait = (o: Offering, w: ExpectedWait | null, long = false) => {
    if (o.available > 0) return long ? t("expectedWaitNow") : t("waitNowShort");
    if (!w) return long ? t("expectedWaitUnknown") : t("waitUnknownShort");
    const p = waitParts(w.p50Seconds);
    const args = { value: format.number(p.value), unit: t(`waitUnits.${p.unit}`), samples: w.samples };
    return long ? t("expectedWait", args) : t("waitShort", args);
  };
  /** Where a per-GPU price stands against the public on-demand median ("18% below market"). */
  const market = (perGpu: number, median: number | null) => {
    if (!median) return null;
    const pct = Math.round((perGpu / median - 1) * 100);
    const args = { pct: Math.abs(pct), median: usd(median) };
    return pct < 0 ? t("marketBelow", args) : pct > 0 ? t("marketAbove", args) : t("marketAt", args);
  };
  const energy = (o: Offering) => t("energyValue", { kwh: num(o.energyKwh, 2) });
  const co2 = (o: Offering) => t("co2Value", { grams: num(o.co2eGrams, 0) });
  return { t, format, usd, usdFine, num, title, size, wait, market, energy, co2 };
}
