import { useTranslations } from "next-intl";
import type { SeriesSummary } from "./series";
import type { ChartFormat } from "./use-chart-format";

type Props = {
  caption: string;
  summaries: SeriesSummary[];
  unit: string;
  digits: number;
  fmt: ChartFormat;
};

/** The chart's numbers in words and a table, for people who cannot see (or hover) the picture. */
export function ChartSummary({ caption, summaries, unit, digits, fmt }: Props) {
  const t = useTranslations("Charts");
  const cell = (v: number | null) => fmt.withUnit(v, unit, digits);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="mb-1 text-left text-xs text-slate-600 dark:text-slate-400">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("summary.series")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("summary.min")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("summary.mean")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("summary.max")}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {t("summary.latest")}
            </th>
          </tr>
        </thead>
        <tbody>
          {summaries.map((s) => (
            <tr key={s.key} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              <th scope="row" className="py-1 pr-3 font-normal">
                {s.label}
              </th>
              <td className="py-1 pr-3 text-right">{cell(s.min)}</td>
              <td className="py-1 pr-3 text-right">{cell(s.mean)}</td>
              <td className="py-1 pr-3 text-right">{cell(s.max)}</td>
              <td className="py-1 text-right">
                {s.latestAt === null ? (
                  cell(s.latest)
                ) : (
                  <span title={fmt.instant(s.latestAt)}>{cell(s.latest)}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
