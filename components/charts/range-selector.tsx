"use client";

import { useTranslations } from "next-intl";
import { CHART_RANGES, type ChartRange } from "./ranges";
import { UrlSegmented } from "./url-segmented";

/** 1 h / 6 h / 24 h / 7 d / 30 d, kept in `?range=` (or another parameter when a page shows two pickers). */
export function RangeSelector({ value, param = "range" }: { value: ChartRange; param?: string }) {
  const t = useTranslations("Charts");
  return (
    <UrlSegmented
      legend={t("range.label")}
      param={param}
      value={value}
      options={CHART_RANGES.map((r) => ({ value: r, label: t(`range.${r}`) }))}
    />
  );
}
