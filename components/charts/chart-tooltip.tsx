"use client";

import type { TooltipContentProps } from "recharts";
import type { ChartFormat } from "./use-chart-format";

type Props = Partial<TooltipContentProps> & {
  fmt: ChartFormat;
  unit: string;
  digits: number;
};

/** Exact values at the hovered (or keyboard-selected) time, formatted like the summary table. */
export function ChartTooltip({ active, payload, label, fmt, unit, digits }: Props) {
  if (!active || !payload?.length || typeof label !== "number") return null;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md dark:border-slate-700 dark:bg-slate-900">
      <p className="mb-1 font-medium">{fmt.instant(label)}</p>
      <ul className="flex flex-col gap-0.5">
        {payload.map((item) => (
          <li key={String(item.dataKey)} className="flex items-center gap-2">
            <span aria-hidden="true" className="inline-block h-0.5 w-3" style={{ background: item.color }} />
            <span>{item.name}</span>
            <span className="ml-auto pl-3 font-medium tabular-nums">
              {fmt.withUnit(typeof item.value === "number" ? item.value : null, unit, digits)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
