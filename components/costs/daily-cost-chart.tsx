import { useFormatter, useTranslations } from "next-intl";
import { useId, useMemo } from "react";
import { ChartEmpty } from "@/components/charts/chart-empty";
import { seriesStyle } from "@/components/charts/palette";
import { LazyDailyCostPlot } from "./daily-cost-plot-lazy";

export type DailyCostGroup = { key: string; label: string; amountUsd: number };
export type DailyCostPoint = { day: string; key: string; amountUsd: number };

type Props = {
  title: string;
  days: string[];
  groups: DailyCostGroup[];
  rows: DailyCostPoint[];
  currency: string;
  /** Column header ("Project") and the same word inside a sentence ("project"). */
  groupLabel: string;
  groupInline: string;
};

export type DailyCostRow = { day: string } & Record<string, number | string>;

const PLOT_HEIGHT = 280;

/**
 * Daily cost as stacked bars (one colour and hatch-free legend entry per group), with an exact-value tooltip
 * and the numbers as tables: totals per group, and per day behind a disclosure. Not a client component: the
 * tables are rendered on the server, and only the picture's loader ships to the browser.
 */
export function DailyCostChart({ title, days, groups, rows, currency, groupLabel, groupInline }: Props) {
  const t = useTranslations("Costs.usage.daily");
  const format = useFormatter();
  const headingId = useId();
  const money = (n: number) => format.number(n, { style: "currency", currency });
  const dayLabel = (d: string) =>
    format.dateTime(new Date(`${d}T00:00:00Z`), { month: "short", day: "numeric", timeZone: "UTC" });
  const data = useMemo(() => {
    const byDay = new Map<string, DailyCostRow>(days.map((d) => [d, { day: d } as DailyCostRow]));
    for (const r of rows) {
      const row = byDay.get(r.day);
      if (row) row[r.key] = Math.round(((Number(row[r.key]) || 0) + r.amountUsd) * 100) / 100;
    }
    return [...byDay.values()].map((row) => {
      for (const g of groups) if (!(g.key in row)) row[g.key] = 0;
      return row;
    });
  }, [days, groups, rows]);
  const total = groups.reduce((s, g) => s + g.amountUsd, 0);

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {title}
      </h2>
      {groups.length === 0 ? (
        <ChartEmpty height={200}>{t("empty")}</ChartEmpty>
      ) : (
        <>
          <div style={{ minHeight: PLOT_HEIGHT }}>
            <LazyDailyCostPlot
              data={data}
              groups={groups}
              currency={currency}
              title={title}
              groupInline={groupInline}
              height={PLOT_HEIGHT}
            />
          </div>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm tabular-nums">
              <caption className="mb-1 text-left text-xs text-slate-600 dark:text-slate-400">
                {t("totalsCaption", { group: groupInline })}
              </caption>
              <thead>
                <tr className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {groupLabel}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("amount")}
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    {t("share")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {groups.map((g, i) => (
                  <tr key={g.key} className="border-b border-slate-100 dark:border-slate-800">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      <span
                        aria-hidden="true"
                        className="mr-2 inline-block h-2.5 w-2.5 rounded-sm align-middle"
                        style={{ background: seriesStyle(i).color }}
                      />
                      {g.label}
                    </th>
                    <td className="py-1 pr-3 text-right">{money(g.amountUsd)}</td>
                    <td className="py-1 text-right">
                      {format.number(total > 0 ? g.amountUsd / total : 0, {
                        style: "percent",
                        maximumFractionDigits: 1,
                      })}
                    </td>
                  </tr>
                ))}
                <tr className="font-semibold">
                  <th scope="row" className="py-1 pr-3">
                    {t("total")}
                  </th>
                  <td className="py-1 pr-3 text-right">{money(total)}</td>
                  <td />
                </tr>
              </tbody>
            </table>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer text-orange-800 underline dark:text-orange-300">
              {t("showDaily")}
            </summary>
            <div className="mt-2 max-h-80 overflow-auto">
              <table className="w-full text-left text-sm tabular-nums">
                <caption className="sr-only">{t("dailyCaption", { group: groupInline })}</caption>
                <thead>
                  <tr className="border-b border-slate-200 text-xs dark:border-slate-700">
                    <th scope="col" className="py-1 pr-3 font-medium">
                      {t("day")}
                    </th>
                    {groups.map((g) => (
                      <th key={g.key} scope="col" className="py-1 pr-3 text-right font-medium">
                        {g.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.map((row) => (
                    <tr key={row.day} className="border-b border-slate-100 dark:border-slate-800">
                      <th scope="row" className="py-1 pr-3 font-normal">
                        {dayLabel(row.day)}
                      </th>
                      {groups.map((g) => (
                        <td key={g.key} className="py-1 pr-3 text-right">
                          {money(Number(row[g.key]) || 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
