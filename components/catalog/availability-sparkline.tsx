import { useTranslations } from "next-intl";
import type { AvailabilityPoint } from "@/lib/catalog";

const W = 140;
const H = 32;

/**
 * A week of availability as a tiny line, drawn on the server as SVG (no chart library on this page), with
 * its figures in words for screen readers and in the text beside it for everyone.
 */
export function AvailabilitySparkline({ points }: { points: AvailabilityPoint[] }) {
  const t = useTranslations("Catalog");
  const values = points.map((p) => p.available);
  const max = Math.max(1, ...values);
  const min = values.length ? Math.min(...values) : 0;
  const now = values.at(-1) ?? 0;
  const step = values.length > 1 ? W / (values.length - 1) : 0;
  const line = values.map((v, i) => `${(i * step).toFixed(1)},${(H - 2 - (v / max) * (H - 4)).toFixed(1)}`);
  const summary = t("historySummary", { min, max: Math.max(...values, 0), now });
  return (
    <div className="flex flex-col gap-1">
      <svg
        role="img"
        aria-label={summary}
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        className="text-orange-700 dark:text-orange-400"
      >
        <line
          x1="0"
          y1={H - 2}
          x2={W}
          y2={H - 2}
          className="stroke-slate-300 dark:stroke-slate-700"
          strokeWidth="1"
        />
        <polyline points={line.join(" ")} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <span aria-hidden="true" className="text-xs text-slate-600 dark:text-slate-400">
        {summary}
      </span>
    </div>
  );
}
