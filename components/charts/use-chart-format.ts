import { useFormatter, useTimeZone, useTranslations } from "next-intl";
import { useMemo } from "react";
import { type ChartRange, isShortRange } from "./ranges";

export type ChartFormat = {
  value: (v: number | null, digits?: number) => string;
  withUnit: (v: number | null, unit: string, digits?: number) => string;
  tick: (t: number) => string;
  instant: (t: number) => string;
  timeZone: string;
};

/** Numbers and times in the active locale (and the configured time zone), shared by axes, tooltip and table. */
export function useChartFormat(range: ChartRange): ChartFormat {
  const format = useFormatter();
  const timeZone = useTimeZone() ?? "UTC";
  const t = useTranslations("Charts");
  return useMemo(() => {
    const value = (v: number | null, digits = 1) =>
      v === null ? t("noValue") : format.number(v, { maximumFractionDigits: digits });
    const short = isShortRange(range);
    return {
      value,
      withUnit: (v, unit, digits = 1) =>
        v === null ? t("noValue") : t("valueWithUnit", { value: value(v, digits), unit }),
      tick: (ms) =>
        short
          ? format.dateTime(new Date(ms), { hour: "2-digit", minute: "2-digit" })
          : format.dateTime(new Date(ms), { month: "short", day: "numeric" }),
      instant: (ms) => format.dateTime(new Date(ms), { dateStyle: "medium", timeStyle: "medium" }),
      timeZone,
    };
  }, [format, t, range, timeZone]);
}
